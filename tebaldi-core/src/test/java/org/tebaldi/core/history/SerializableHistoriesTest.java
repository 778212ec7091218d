package org.tebaldi.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.history.HistoryFixture.T0;
import static org.tebaldi.core.history.HistoryFixture.k;
import static org.tebaldi.core.history.HistoryFixture.t;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;

/** Serializable histories must pass, with the DSG edges Adya's definition gives (dissertation §2.2.3). */
class SerializableHistoriesTest {
    private static final Key X = k(1);
    private static final Key Y = k(2);

    private static CheckResult assertSerializable(HistoryFixture f) {
        CheckResult r = f.check();
        assertTrue(r.serializable(), r::summary);
        assertEquals(0, r.violationCount());
        assertTrue(r.violations().isEmpty());
        assertTrue(r.summary().startsWith("serializable\n"), r::summary);
        return r;
    }

    @Test
    void emptyHistory() {
        CheckResult r = SerializabilityChecker.check(History.merge(List.of()));
        assertTrue(r.serializable());
        assertEquals(0, r.committed());
    }

    @Test
    void serialChainOfReadModifyWrites() {
        HistoryFixture f = new HistoryFixture();
        long[] order = new long[11];
        long prev = T0;
        for (int i = 1; i <= 10; i++) {
            long txn = t(i % 3, i);
            f.read(txn, X, prev).write(txn, X).read(txn, Y, T0).commit(txn, "Inc");
            order[i] = txn;
            prev = txn;
        }
        f.order(X, order);
        CheckResult r = assertSerializable(f);
        assertEquals(10, r.committed());
        assertEquals(10, r.edges(EdgeType.WW));
        assertEquals(20, r.edges(EdgeType.WR));
        assertEquals(0, r.edges(EdgeType.RW));
        assertTrue(r.summary().contains("DSG edges ww=10 wr=20 rw=0"), r::summary);
    }

    @Test
    void concurrentTransactionsOnDisjointKeysAcrossManyLogs() {
        HistoryFixture f = new HistoryFixture();
        HistoryLog[] servers = {f.ds, f.log(), f.log()};
        HistoryLog coordinator2 = f.log();
        for (int i = 1; i <= 60; i++) {
            long txn = t(i % 2, i);
            Key mine = k(100 + i);
            HistoryLog ds = servers[i % 3];
            ds.read(txn, mine, T0, 1);
            ds.write(txn, mine, 1);
            ds.write(txn, mine, 2);
            ds.read(txn, mine, txn, 2);
            ds.versionOrder(mine, new long[] {T0, txn});
            (i % 2 == 0 ? f.tc : coordinator2).outcome(txn, true, "Own");
        }
        CheckResult r = assertSerializable(f);
        assertEquals(60, r.committed());
        assertEquals(60, r.edges(EdgeType.WW));
        assertEquals(60, r.edges(EdgeType.WR));
        assertEquals(0, r.edges(EdgeType.RW));
    }

    @Test
    void readOnlyTransactionsSeeingConsistentSnapshots() {
        long w1 = t(0, 1);
        long w2 = t(0, 2);
        long before = t(1, 1);
        long middle = t(1, 2);
        long after = t(1, 3);
        HistoryFixture f = new HistoryFixture()
                .write(w1, X).write(w1, Y).write(w2, X).write(w2, Y)
                .commit(w1, "W").commit(w2, "W")
                .read(before, X, T0).read(before, Y, T0).commit(before, "Snap")
                .read(middle, X, w1).read(middle, Y, w1).commit(middle, "Snap")
                .read(after, Y, w2).read(after, X, w2).commit(after, "Snap")
                .order(X, T0, w1, w2).order(Y, T0, w1, w2);
        CheckResult r = assertSerializable(f);
        assertEquals(4, r.edges(EdgeType.WW));
        assertEquals(6, r.edges(EdgeType.WR));
        assertEquals(4, r.edges(EdgeType.RW));
    }

    @Test
    void abortedAndUnfinishedTransactionsAreIgnored() {
        long w = t(0, 1);
        long aborted = t(0, 2);
        long unfinished = t(0, 3);
        long reader = t(1, 1);
        HistoryFixture f = new HistoryFixture()
                .write(w, X).write(w, X).commit(w, "W")
                // an aborted and an unfinished transaction that read an intermediate and an aborted version and
                // formed a write skew with each other: none of it counts
                .write(aborted, Y).abort(aborted, "Bad")
                .read(aborted, X, w, 1).read(aborted, Y, T0).read(unfinished, Y, aborted).write(unfinished, X)
                .read(reader, X, w).read(reader, Y, T0).commit(reader, "R")
                .order(X, T0, w).order(Y, T0);
        CheckResult r = assertSerializable(f);
        assertEquals(2, r.committed());
        assertEquals(1, r.aborted());
        assertEquals(1, r.unfinished());
    }

    @Test
    void readsOfOwnWritesAreIgnored() {
        long a = t(0, 1);
        HistoryFixture f = new HistoryFixture()
                .read(a, X, T0).write(a, X).read(a, X, a).write(a, X).read(a, X, a)
                .commit(a, "Self")
                .order(X, T0, a);
        CheckResult r = assertSerializable(f);
        assertEquals(1, r.edges(EdgeType.WW));
        assertEquals(1, r.edges(EdgeType.WR));
        assertEquals(0, r.edges(EdgeType.RW));
    }

    @Test
    void readingTheAbsenceOfAKeyBeforeItsInsert() {
        long inserter = t(0, 1);
        long early = t(1, 1);
        long late = t(1, 2);
        HistoryFixture f = new HistoryFixture()
                .read(early, X, T0).commit(early, "Lookup")
                .write(inserter, X).commit(inserter, "Insert")
                .read(late, X, inserter).commit(late, "Lookup")
                .read(late, Y, T0).commit(late, "Lookup")
                .order(X, inserter);
        CheckResult r = assertSerializable(f);
        assertEquals(1, r.edges(EdgeType.RW));
    }
}
