package org.tebaldi.bench.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;

/**
 * Property-based fuzzing of CC tree files: every shipped {@code config/trees/*.yaml}, damaged by a
 * {@link YamlMutation}, either loads (the damage was harmless) or fails with exactly one clear
 * {@link ConfigException} ({@link ClearError}); nothing else may escape the loader. Each tree is checked against the
 * database of a shipped experiment that uses it (so the leaves' types are checked too), or none. 200 tries by
 * default; {@code -Djqwik.tries.default=N} raises it.
 */
class TreeYamlFuzzTest {
    private static final Path TREES = Path.of("../config/trees");
    private static final Map<String, String> TEXT = new HashMap<>();
    private static final Map<String, Database> DB = new HashMap<>();

    static {
        try (Stream<Path> s = Files.list(TREES)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                TEXT.put(p.getFileName().toString(), Files.readString(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (Stream<Path> s = Files.list(Path.of("../config/experiments"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (SweepPoint p : ExperimentLoader.loadSweep(List.of(f), List.of(), Path.of("")).points()) {
                    Experiment e = p.experiment();
                    if (e.treeRef() != null && e.treeRef().file() != null) {
                        DB.putIfAbsent(e.treeRef().file().getFileName().toString(), e.workload().database());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Provide
    Arbitrary<String> shippedTree() {
        return Arbitraries.of(TEXT.keySet().stream().sorted().toList());
    }

    @Provide
    Arbitrary<YamlMutation> mutation() {
        return YamlMutation.any();
    }

    @Property
    void aDamagedTreeLoadsOrFailsWithOneClearMessage(@ForAll("shippedTree") String name,
                                                      @ForAll("mutation") YamlMutation m) {
        load(name, m.apply(TEXT.get(name)));
    }

    /** Damage that once broke the loader (found by this test), kept as regression examples. */
    private static final List<YamlMutation> REGRESSIONS = List.of(
            // a flow sequence as a key: SnakeYAML's event dump leaked into the message
            new YamlMutation(YamlMutation.Kind.RENAME_KEY, 0, 0, "[1, 2]"),
            // an empty mapping (here with a tag): NullPointerException in SpecReader
            new YamlMutation(YamlMutation.Kind.REPLACE_ALL, 0, 0, "!!java.lang.Object {}"),
            // a block scalar where the root node belongs: the multi-line value was echoed on several lines
            new YamlMutation(YamlMutation.Kind.REPLACE_VALUE, 2, 0, "|"));

    @Example
    void regressions() {
        for (YamlMutation m : REGRESSIONS) {
            load("2pl.yaml", m.apply(TEXT.get("2pl.yaml")));
        }
    }

    @Example
    void everyShippedTreeLoadsUndamaged() {
        TEXT.keySet().forEach(name -> TreeLoader.readString(TEXT.get(name), "config/trees/" + name, ctx(name)));
    }

    private static void load(String name, String text) {
        try {
            TreeLoader.readString(text, "config/trees/" + name, ctx(name));
        } catch (ConfigException e) {
            ClearError.check(e, text);
        }
    }

    private static TreeContext ctx(String name) {
        return TreeContext.of(DB.get(name));
    }
}
