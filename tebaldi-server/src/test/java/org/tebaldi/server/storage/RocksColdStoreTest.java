package org.tebaldi.server.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk tier of the base store: what goes in comes back, and the filter of spilled keys never hides one. */
class RocksColdStoreTest {
    private static byte[] key(int i) {
        return ("k" + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void rowsComeBackAbsentKeysAreNullAndClearEmptiesIt(@TempDir Path dir) {
        RocksColdStore s = RocksColdStore.open(dir, "ds0");
        int n = 5_000;
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = key(i);
            values[i] = ("v" + i).getBytes(StandardCharsets.UTF_8);
        }
        s.putAll(keys, values, n);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(values[i], s.get(key(i)), "key " + i);
        }
        for (int i = n; i < 2 * n; i++) {
            assertNull(s.get(key(i)), "never spilled: key " + i);
        }
        s.delete(key(3));
        assertNull(s.get(key(3)), "deleted (still in the filter: looked up and not found)");
        Map<String, String> seen = new HashMap<>();
        s.forEach((k, v) -> seen.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
        assertEquals(n - 1, seen.size());
        assertEquals("v7", seen.get("k7"));
        s.clear();
        assertNull(s.get(key(7)), "cleared");
        s.putAll(new byte[][]{key(7)}, new byte[][]{{1}}, 1);
        assertArrayEquals(new byte[]{1}, s.get(key(7)), "written again after the clear");
        s.close();
        assertEquals(0, dir.toFile().list().length, "the directory is deleted");
    }

    @Test
    void theFilterGrowsWithoutEverHidingASpilledKey() {
        SpilledKeys f = new SpilledKeys(1_000);
        int n = 30_000; // filters of 1,000, 4,000, 16,000 and 64,000 keys
        for (int i = 0; i < n; i++) {
            f.add(key(i));
        }
        for (int i = 0; i < n; i++) {
            assertTrue(f.mayHold(key(i)), "no false negative: key " + i);
        }
        int falsePositives = 0;
        for (int i = n; i < 2 * n; i++) {
            falsePositives += f.mayHold(key(i)) ? 1 : 0;
        }
        assertTrue(falsePositives < n * 0.05, "about 1% per filter, 4 filters: " + falsePositives + " of " + n);
        long bytes = f.bytes();
        assertTrue(bytes > (1_000 + 4_000 + 16_000 + 64_000) * 9 / 8 && bytes < 120_000, "bytes " + bytes);
        f.clear();
        assertFalse(f.mayHold(key(1)));
        assertEquals(0, f.bytes());
    }
}
