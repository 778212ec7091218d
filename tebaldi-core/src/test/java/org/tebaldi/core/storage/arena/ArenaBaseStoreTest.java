package org.tebaldi.core.storage.arena;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.StorageStats;
import org.tebaldi.core.storage.Version;

/** The off-heap base store against a map model: put, get, overwrite, delete, compaction, spill and read-back. */
class ArenaBaseStoreTest {
    private static final Catalog CAT = new Catalog();
    private static final TableSchema PACKED = CAT.add("p", 2, 0, false, Catalog.longCol("n"),
            Catalog.stringCol("pad"));
    /** Keys with a negative part do not pack: they take the hashed index. */
    private static final TableSchema HASHED = CAT.add("h", 1, 0, false, Catalog.longCol("n"));

    private static Version settled(long writer, Row row) {
        Version v = new Version(writer, -1, 0, row, true);
        v.settle();
        return v;
    }

    private static Key key(int i) {
        return i % 3 == 0 ? Key.of(HASHED.id(), -i - 1) : Key.of(PACKED.id(), i % 7, i);
    }

    private static Row row(Key k, long n) {
        return k.table() == HASHED.id() ? HASHED.row(n) : PACKED.row(n, "x".repeat((int) (n % 50)));
    }

    private static void check(ArenaBaseStore s, Map<Key, Long> model, int keys) {
        for (int i = 0; i < keys; i++) {
            Key k = key(i);
            Version v = s.get(k);
            Long want = model.get(k);
            if (want == null) {
                assertNull(v, k + " absent");
                assertFalse(s.contains(k));
            } else {
                assertNotNull(v, k + " present");
                assertEquals(row(k, want), v.value(), k.toString());
                assertEquals((long) want, v.writer());
                assertTrue(v.settled() && v.committed());
            }
        }
        assertEquals(model.size(), s.keyCount());
        Map<Key, Long> seen = new HashMap<>();
        s.forEach((k, v) -> assertEquals(null, seen.put(k, v.writer()), "visited once: " + k));
        assertEquals(model, seen);
    }

    @Test
    void putGetOverwriteDelete() {
        ArenaBaseStore s = new ArenaBaseStore(CAT, Long.MAX_VALUE, 16, null);
        Map<Key, Long> model = new HashMap<>();
        Random rnd = new Random(5);
        for (int step = 0; step < 20_000; step++) {
            Key k = key(rnd.nextInt(500));
            if (rnd.nextInt(5) == 0) {
                assertEquals(model.remove(k) != null, s.remove(k), "remove " + k);
            } else {
                long n = rnd.nextInt(1_000_000);
                s.put(k, settled(n, row(k, n)));
                model.put(k, n);
            }
            if (step % 97 == 0) {
                s.maintain(50);
            }
        }
        check(s, model, 500);
        StorageStats st = s.stats();
        assertTrue(st.liveBytes() <= st.offHeapBytes(), st.toString());
        s.close();
    }

    @Test
    void compactionReclaimsOverwrittenRecords() {
        ArenaBaseStore s = new ArenaBaseStore(CAT, Long.MAX_VALUE, 16, null);
        Map<Key, Long> model = new HashMap<>();
        for (int round = 0; round < 60; round++) {
            for (int i = 0; i < 2_000; i++) {
                Key k = key(i);
                s.put(k, settled(round, row(k, round)));
                model.put(k, (long) round);
            }
            while (s.maintain(1_000)) {
                // until no segment needs compacting
            }
        }
        check(s, model, 2_000);
        StorageStats st = s.stats();
        assertTrue(st.offHeapBytes() < 8 * st.liveBytes() + (2 << 20),
                "compaction keeps the arena near its live bytes: " + st);
        s.close();
    }

    @Test
    void beyondTheBudgetRowsGoToDiskAndComeBack() {
        MemoryColdStore disk = new MemoryColdStore();
        long budget = 256 << 10;
        ArenaBaseStore s = new ArenaBaseStore(CAT, budget, 16, () -> disk);
        Map<Key, Long> model = new HashMap<>();
        int keys = 30_000;
        for (int i = 0; i < keys; i++) {
            Key k = key(i);
            s.put(k, settled(i, row(k, i)));
            model.put(k, (long) i);
            if (i % 500 == 0) {
                s.maintain(2_000);
            }
        }
        while (s.maintain(2_000)) {
            // spill until within the budget
        }
        StorageStats st = s.stats();
        assertTrue(st.diskKeys() > keys / 2, "most rows went to disk: " + st);
        assertTrue(st.offHeapBytes() <= budget + Arena.MAX_SEGMENT, "memory stays near the budget: " + st);
        assertEquals(keys, s.keyCount());
        // read back (each read moves the row into memory again), overwrite some, delete some
        for (int i = 0; i < keys; i += 7) {
            Key k = key(i);
            if (i % 2 == 0) {
                s.put(k, settled(i + 1, row(k, i + 1)));
                model.put(k, (long) i + 1);
            } else {
                assertTrue(s.remove(k));
                model.remove(k);
            }
            if (i % 700 == 0) {
                s.maintain(2_000);
            }
        }
        check(s, model, keys);
        assertTrue(disk.gets > 0, "rows were read back from disk");
        s.close();
        assertTrue(disk.closed);
    }

    @Test
    void insertsOfNewKeysDoNotLookOnDiskAndKeepTheCountExact() {
        MemoryColdStore disk = new MemoryColdStore();
        ArenaBaseStore s = new ArenaBaseStore(CAT, 128 << 10, 16, () -> disk);
        Map<Key, Long> model = new HashMap<>();
        Random rnd = new Random(11);
        int next = 0;
        int inserts = 0;
        for (int step = 0; step < 40_000; step++) {
            int op = rnd.nextInt(10);
            if (op < 6 || next == 0) { // a new key: insert, no lookup on disk
                Key k = key(next++);
                int before = disk.gets;
                s.insert(k, settled(step, row(k, step)));
                assertEquals(before, disk.gets, "insert of " + k + " looked on disk");
                model.put(k, (long) step);
                inserts++;
            } else if (op < 9) { // an existing key, wherever it is: put shadows its disk copy
                Key k = key(rnd.nextInt(next));
                s.put(k, settled(step, row(k, step)));
                model.put(k, (long) step);
            } else {
                Key k = key(rnd.nextInt(next));
                assertEquals(model.remove(k) != null, s.remove(k), "remove " + k);
            }
            if (step % 250 == 0) {
                s.maintain(1_000);
                assertEquals(model.size(), s.keyCount(), "key count at step " + step);
            }
        }
        assertTrue(s.stats().diskKeys() > 1_000, "rows went to disk: " + s.stats());
        assertTrue(inserts > 20_000);
        check(s, model, next);
        s.close();
    }

    @Test
    void compactionAndSpillMoveOnlyCurrentRecords() {
        MemoryColdStore disk = new MemoryColdStore();
        ArenaBaseStore s = new ArenaBaseStore(CAT, 512 << 10, 16, () -> disk);
        Map<Key, Long> model = new HashMap<>();
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < 3_000; i++) {
                Key k = key(i);
                if ((i + round) % 11 == 0 && model.containsKey(k)) {
                    s.remove(k);
                    model.remove(k);
                } else {
                    s.put(k, settled(round, row(k, round)));
                    model.put(k, (long) round);
                }
            }
            while (s.maintain(500)) {
                // compact and spill: a superseded record moved would come back as an extra key or an old row
            }
            assertEquals(model.size(), s.keyCount(), "round " + round);
        }
        check(s, model, 3_000);
        s.close();
    }

    @Test
    void clearForgetsEverythingAndKeepsWorking() {
        MemoryColdStore disk = new MemoryColdStore();
        ArenaBaseStore s = new ArenaBaseStore(CAT, 64 << 10, 16, () -> disk);
        for (int i = 0; i < 5_000; i++) {
            s.put(key(i), settled(i, row(key(i), i)));
        }
        while (s.maintain(1_000)) {
            // spill
        }
        s.clear();
        assertEquals(0, s.keyCount());
        assertNull(s.get(key(1)));
        Map<Key, Long> model = new HashMap<>();
        for (int i = 0; i < 100; i++) {
            s.put(key(i), settled(7, row(key(i), 7)));
            model.put(key(i), 7L);
        }
        check(s, model, 5_000);
        s.close();
    }

    @Test
    void aGenerationLaterVersionsReadRebased() {
        ArenaBaseStore s = new ArenaBaseStore(CAT, Long.MAX_VALUE, 16, null);
        Key k = key(1);
        Version v = new Version(11, 4, 2, row(k, 3), true);
        v.setStamp(1, 500);
        v.settle();
        s.put(k, v);
        assertEquals(500, s.get(k).stamp(1));
        s.rebaseAll();
        Version b = s.get(k);
        assertEquals(Version.NO_STAMP, b.stamp(1));
        assertEquals(-1, b.writerLeaf());
        assertEquals(11, b.writer());
        s.close();
    }
}
