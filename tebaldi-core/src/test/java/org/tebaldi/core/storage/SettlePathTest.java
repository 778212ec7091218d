package org.tebaldi.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.arena.ArenaBaseStore;

/**
 * The way of a version through the two layers of {@link MultiVersionStore}: loaded into the base store, looked up
 * into a chain, written, settled, and out of the heap again once no transaction of a running GC epoch can hold it
 * — read back with every field a mechanism looks at.
 */
class SettlePathTest {
    private static final Catalog CAT = new Catalog();
    private static final TableSchema T = CAT.add("t", 1, 0, false, Catalog.longCol("n"));
    private static final Key K = Key.of(T.id(), 1);

    private static MultiVersionStore store() {
        return new MultiVersionStore(16, new ArenaBaseStore(CAT, Long.MAX_VALUE, 16, null));
    }

    @Test
    void loadedRowsStayOffTheHeapUntilLookedUp() {
        MultiVersionStore s = store();
        for (long i = 0; i < 1_000; i++) {
            s.load(Key.of(T.id(), i), T.row(i));
        }
        assertEquals(1_000, s.keyCount());
        assertEquals(0, s.hotKeys(), "loading builds no chain");
        assertEquals(T.row(5L), s.latestCommittedRow(Key.of(T.id(), 5)));
        assertEquals(0, s.hotKeys(), "nor does a read of a replicated table");
        VersionChain c = s.find(Key.of(T.id(), 7));
        assertEquals(1, c.size());
        assertEquals(Version.INITIAL_WRITER, c.latest().writer());
        assertEquals(T.row(7L), c.latest().value());
        assertEquals(1, s.hotKeys());
        assertNull(s.find(Key.of(T.id(), 5_000)));
        assertEquals(1, s.hotKeys(), "a miss builds no chain");
        assertEquals(1_000, s.versionCount());
    }

    @Test
    void aSettledVersionLeavesTheHeapOnceNoRunningEpochHoldsIt() {
        MultiVersionStore s = store();
        s.load(K, T.row(0L));
        s.advanceClock(3);
        VersionChain c = s.chain(K); // a transaction of epoch 3 looks it up and writes
        Version w = new Version(42, 2, 0, T.row(1L), false);
        c.append(w);
        w.setStamp(1, 777);
        w.setAuxStamp(0, 5);
        assertEquals(0, s.evict(10, 100, 100), "an uncommitted version keeps the chain");
        w.commit();
        assertEquals(0, s.evict(10, 100, 100), "a committed, unsettled one too");
        w.settle();
        c.pruneSettled(null);
        assertEquals(0, s.evict(3, 100, 100), "epoch 3 still runs: the chain may be held");
        assertSame(c, s.find(K));
        s.advanceClock(4);
        assertSame(c, s.chain(K), "looked up again in epoch 4");
        assertEquals(0, s.evict(4, 100, 100));
        assertEquals(1, s.evict(5, 100, 100), "every epoch up to 4 finished");
        assertEquals(0, s.hotKeys());
        assertEquals(1, s.keyCount());
        VersionChain again = s.find(K);
        assertNotSame(c, again, "a chain of its own");
        Version v = again.latest();
        assertNotSame(w, v);
        assertEquals(42, v.writer());
        assertEquals(T.row(1L), v.value());
        assertEquals(777, v.stamp(1));
        assertEquals(5, v.auxStamp(0));
        assertEquals(2, v.writerLeaf());
        assertEquals(w.orderKey(), v.orderKey());
        assertTrue(v.committed() && v.settled());
        assertArrayEquals(new long[]{42}, s.versionOrder(K));
    }

    @Test
    void aKeyCreatedInMemoryLeavesByInsertOneReadFromTheBaseStoreByPut() {
        java.util.List<String> calls = new java.util.ArrayList<>();
        BaseStore arena = new ArenaBaseStore(CAT, Long.MAX_VALUE, 16, null);
        BaseStore recorded = (BaseStore) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{BaseStore.class}, (proxy, m, args) -> {
                    if (m.getName().equals("put") || m.getName().equals("insert")) {
                        calls.add(m.getName() + " " + args[0]);
                    }
                    return m.invoke(arena, args);
                });
        MultiVersionStore s = new MultiVersionStore(16, recorded);
        Key old = Key.of(T.id(), 1);
        Key created = Key.of(T.id(), 2);
        s.load(old, T.row(1L));
        calls.clear();
        s.advanceClock(1);
        for (Key k : new Key[]{old, created}) {
            Version w = new Version(7, 0, 0, T.row(9L), false);
            s.chain(k).append(w);
            w.commit();
            w.settle();
            s.chain(k).pruneSettled(null);
        }
        assertEquals(2, s.evict(2, 100, 100));
        assertEquals(java.util.List.of("put " + old, "insert " + created), calls,
                "the base store is told which key it cannot hold yet (no lookup on disk for it)");
        assertEquals(T.row(9L), s.latestCommittedRow(created));
        assertEquals(T.row(9L), s.latestCommittedRow(old));
        assertEquals(2, s.keyCount());
    }

    @Test
    void aPassLooksAtTheLeastRecentlyLookedUpChainsFirstAndStopsAtOneARunningEpochHolds() {
        MultiVersionStore s = store();
        for (long i = 0; i < 10; i++) {
            s.load(Key.of(T.id(), i), T.row(i));
        }
        s.advanceClock(1);
        for (long i = 0; i < 10; i++) {
            s.find(Key.of(T.id(), i)); // every key read back in epoch 1, key 0 first
        }
        s.advanceClock(2);
        for (long i = 0; i < 5; i++) {
            s.find(Key.of(T.id(), i)); // keys 0-4 looked up again in epoch 2, which still runs
        }
        // a pass of one chain: the least recently looked up (key 5), not the first read back (key 0, held)
        assertEquals(1, s.evict(2, 1, 100), "the least recently looked-up chain leaves first");
        assertNull(s.peek(Key.of(T.id(), 5)));
        assertEquals(4, s.evict(2, 100, 100), "keys 6-9; the pass stops at key 0, which epoch 2 holds");
        assertEquals(5, s.hotKeys());
        assertEquals(5, s.evict(3, 100, 100), "epoch 2 finished");
        assertEquals(0, s.hotKeys());
    }

    @Test
    void aChainWaitingForItsEpochToBeCollectedDoesNotHoldUpThePass() {
        MultiVersionStore s = store();
        Key a = Key.of(T.id(), 1);
        Key b = Key.of(T.id(), 2);
        s.load(a, T.row(1L));
        s.load(b, T.row(2L));
        s.advanceClock(1);
        Version w = new Version(7, 0, 0, T.row(10L), false);
        s.chain(a).append(w); // written in epoch 1, committed, its epoch not collected yet
        w.commit();
        s.find(b);
        s.advanceClock(2);
        assertEquals(1, s.evict(2, 100, 100), "b leaves; a, not settled, goes to the newest end");
        assertNotNull(s.peek(a));
        assertNull(s.peek(b));
        w.settle();
        s.chain(a).pruneSettled(null);
        assertEquals(0, s.evict(2, 100, 100), "a was stamped with epoch 2 when the pass put it back");
        assertEquals(1, s.evict(3, 100, 100));
    }

    @Test
    void theEvictionListenerSeesEachChainBeforeItLeavesAndPeekDoesNotReadItBack() {
        MultiVersionStore s = store();
        s.load(K, T.row(0L));
        Map<Key, Long> seen = new HashMap<>();
        s.beforeEviction((k, c) -> {
            assertSame(c, s.peek(k), "still in memory when the listener runs");
            seen.put(k, c.latest().writer());
        });
        s.advanceClock(1);
        VersionChain c = s.chain(K);
        Version w = new Version(42, 2, 0, T.row(1L), false);
        c.append(w);
        w.commit();
        w.settle();
        c.pruneSettled(null);
        assertSame(c, s.peek(K));
        assertEquals(1, s.evict(2, 100, 100));
        assertEquals(Map.of(K, 42L), seen);
        assertNull(s.peek(K), "peek reads nothing back");
        assertEquals(0, s.hotKeys());
        assertNotNull(s.find(K), "find does");
        assertEquals(1, s.hotKeys());
    }

    @Test
    void anUnchangedVersionIsNotWrittenAgainAChangedOneIs() {
        MultiVersionStore s = store();
        s.load(K, T.row(0L));
        StorageStats before = s.stats();
        s.find(K);
        s.evict(Long.MAX_VALUE, 100, 100);
        assertEquals(before.liveBytes(), s.stats().liveBytes());
        assertEquals(before.offHeapBytes(), s.stats().offHeapBytes());
        s.find(K).latest().setStamp(0, 9); // e.g. a lease stamped on a read
        s.evict(Long.MAX_VALUE, 100, 100);
        assertEquals(9, s.find(K).latest().stamp(0), "the stamp survived the round trip");
    }

    @Test
    void newAndEmptiedKeys() {
        MultiVersionStore s = store();
        VersionChain c = s.chain(K);
        assertEquals(1, s.keyCount());
        Version u = new Version(3, 0, 0, T.row(1L), false);
        c.append(u);
        c.remove(u); // the writer aborted
        assertEquals(1, s.evict(Long.MAX_VALUE, 100, 100), "an empty chain leaves");
        assertEquals(0, s.keyCount());
        assertNull(s.find(K));
        Version d = new Version(4, 0, 0, null, true); // a settled delete is kept: reads name its writer
        d.settle();
        s.chain(K).append(d);
        s.evict(Long.MAX_VALUE, 100, 100);
        assertEquals(1, s.keyCount());
        assertTrue(s.find(K).latest().deleted());
        assertNull(s.latestCommittedRow(K));
    }

    @Test
    void forEachSeesBothLayersOnceAndClearForgetsBoth() {
        MultiVersionStore s = store();
        Map<Key, Long> want = new HashMap<>();
        for (long i = 0; i < 50; i++) {
            s.load(Key.of(T.id(), i), T.row(i));
            want.put(Key.of(T.id(), i), i);
        }
        for (long i = 0; i < 50; i += 5) {
            s.find(Key.of(T.id(), i));
        }
        s.chain(Key.of(T.id(), 99)).append(committedSettled(9, 99));
        want.put(Key.of(T.id(), 99), 99L);
        Map<Key, Long> seen = new HashMap<>();
        s.forEach((k, c) -> assertNull(seen.put(k, c.latestCommitted().value().getLong("n")), "once: " + k));
        assertEquals(want, seen);
        assertEquals(51, s.keyCount());
        s.clear();
        assertEquals(0, s.keyCount());
        assertNull(s.find(Key.of(T.id(), 3)));
        s.close();
    }

    @Test
    void rebaseAllReachesBothLayers() {
        MultiVersionStore s = store();
        Version w = committedSettled(7, 1);
        w.setStamp(2, 70);
        s.chain(K).append(w);
        s.evict(Long.MAX_VALUE, 100, 100);
        Key other = Key.of(T.id(), 2);
        Version h = committedSettled(8, 2);
        h.setStamp(2, 80);
        s.chain(other).append(h);
        s.rebaseAll();
        assertEquals(Version.NO_STAMP, h.stamp(2), "in memory: at once");
        assertEquals(Version.NO_STAMP, s.find(K).latest().stamp(2), "in the base store: when read");
        assertEquals(-1, s.find(K).latest().writerLeaf());
    }

    @Test
    void recoveryRestoresStraightIntoTheBaseStore() {
        MultiVersionStore s = store();
        Version v = committedSettled(12, 5);
        v.setOrderKey(7L << 20);
        v.rebase();
        s.restore(K, v);
        assertEquals(0, s.hotKeys());
        Version back = s.find(K).latest();
        assertEquals(7L << 20, back.orderKey());
        assertNotNull(back.value());
    }

    private static Version committedSettled(long writer, long n) {
        Version v = new Version(writer, 1, 0, T.row(n), true);
        v.settle();
        return v;
    }
}
