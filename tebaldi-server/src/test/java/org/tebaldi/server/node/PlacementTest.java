package org.tebaldi.server.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/** A Chiller placement file: written and read back; hot keys go to their server, others to the fallback; bad files. */
class PlacementTest {
    private final Catalog cat = new Catalog();
    private final TableSchema s = cat.add("stock", 2, 0, false, Catalog.longCol("q"));

    @TempDir
    Path dir;

    @Test
    void roundTripAndLookup() throws Exception {
        Placement p = new Placement(Map.of(Key.of(s, 1L, 7L), 0, Key.of(s, 2L, 7L), 0), Partitioner.byTable(cat, 2));
        Path f = dir.resolve("p.json");
        p.write(f, cat, 2);
        Placement back = Placement.load(f, cat, 2);
        assertEquals(p.hotKeys(), back.hotKeys());
        assertTrue(back.hot(Key.of(s, 1L, 7L)));
        assertEquals(0, back.partition(Key.of(s, 1L, 7L)), "hot: the lookup table's server (byTable says 1)");
        assertFalse(back.hot(Key.of(s, 1L, 8L)));
        assertEquals(1, back.partition(Key.of(s, 1L, 8L)), "cold: the default partitioner");
    }

    private String error(String json, int servers) throws Exception {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, json);
        return assertThrows(IllegalArgumentException.class, () -> Placement.load(f, cat, servers)).getMessage();
    }

    @Test
    void badFilesSayWhereAndHowToFix() throws Exception {
        String m = error("{\"dataServers\": 3, \"hot\": []}", 2);
        assertTrue(m.contains("bad.json") && m.contains("'dataServers'") && m.contains("fix:"), m);
        m = error("{\"dataServers\": 2, \"hot\": [{\"table\": \"nope\", \"key\": [1, 2], \"server\": 0}]}", 2);
        assertTrue(m.contains("hot[0]") && m.contains("'nope'") && m.contains("[stock]"), m);
        m = error("{\"dataServers\": 2, \"hot\": [{\"table\": \"stock\", \"key\": [1], \"server\": 0}]}", 2);
        assertTrue(m.contains("hot[0]") && m.contains("2 key parts"), m);
        m = error("{\"dataServers\": 2, \"hot\": [{\"table\": \"stock\", \"key\": [1, 2], \"server\": 5}]}", 2);
        assertTrue(m.contains("outside 0..1"), m);
        m = error("not json", 2);
        assertTrue(m.contains("cannot be read") && m.contains("tebaldi partition"), m);
    }
}
