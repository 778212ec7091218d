package org.tebaldi.cc.sundial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.cc.tictoc.TicToc;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;

/** Sundial's and TicToc's options: defaults load, a bad value or a misplaced cache gets one clear message. */
class SundialOptionsTest {
    private static List<String> problems(TreeSpec spec) {
        CcTree t = CcTree.build(spec, "t");
        return new Sundial().checkOptions(t.leafFor("A"));
    }

    @Test
    void validOptions() {
        assertEquals(List.of(), problems(TreeSpec.leaf("sundial", "A")));
        assertEquals(List.of(), problems(TreeSpec.leaf("sundial", "A").option("cache", "hybrid")
                .option("cacheSize", 10).option("cacheThreshold", 0.5).option("tableLeases", false)
                .option("lockTimeout", "20ms")));
    }

    @Test
    void badValues() {
        assertEquals(List.of("option 'cache' must be off, always-reuse, always-request or hybrid, not 'sometimes'"),
                problems(TreeSpec.leaf("sundial", "A").option("cache", "sometimes")));
        assertTrue(problems(TreeSpec.leaf("sundial", "A").option("cacheSize", 0)).get(0).startsWith(
                "option 'cacheSize' must be 1.."));
        assertTrue(problems(TreeSpec.leaf("sundial", "A").option("cacheThreshold", 2)).get(0).startsWith(
                "option 'cacheThreshold' must be a number in [0, 1]"));
        assertTrue(problems(TreeSpec.leaf("sundial", "A").option("colour", "red")).get(0).startsWith(
                "option 'colour' is unknown to sundial"));
        assertTrue(new TicToc().checkOptions(CcTree.build(TreeSpec.leaf("tictoc", "A").option("cache", "hybrid"),
                "t").root()).get(0).startsWith("option 'cache' is unknown to tictoc"));
    }

    @Test
    void theCacheNeedsAOneNodeTree() {
        TreeSpec deep = TreeSpec.inner("2pl", TreeSpec.leaf("sundial", "A").option("cache", "always-reuse"),
                TreeSpec.leaf("2pl", "B"));
        assertTrue(problems(deep).get(0).startsWith("option 'cache' needs sundial to be the whole tree"));
        TreeSpec tl = TreeSpec.inner("2pl", TreeSpec.leaf("sundial", "A").option("tableLeases", true),
                TreeSpec.leaf("2pl", "B"));
        assertTrue(problems(tl).get(0).startsWith("option 'tableLeases' needs sundial to be the whole tree"));
    }

    @Test
    void theTreeLoaderNamesTheOptionAndTheLine() {
        Catalog cat = new Catalog();
        cat.add("t", 1, -1, false, Catalog.longCol("v"));
        Database db = new Database(cat);
        db.interactive("A", false);
        ConfigException e = assertThrows(ConfigException.class, () -> TreeLoader.parse("""
                root:
                  cc: sundial
                  options: {cache: sometimes}
                  txns: [A]
                """, "s.yaml", TreeContext.of(db)));
        assertTrue(e.getMessage().contains("s.yaml:3"), e.getMessage());
        assertTrue(e.getMessage().contains("option 'cache' must be off, always-reuse, always-request or hybrid"),
                e.getMessage());
        ConfigException inner = assertThrows(ConfigException.class, () -> TreeLoader.parse("""
                root:
                  cc: sundial
                  children:
                    - {cc: 2pl, txns: [A]}
                """, "s.yaml", TreeContext.of(db)));
        assertTrue(inner.getMessage().contains("sundial is a leaf"), inner.getMessage());
    }
}
