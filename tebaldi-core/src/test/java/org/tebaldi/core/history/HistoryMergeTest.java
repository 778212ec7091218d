package org.tebaldi.core.history;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.history.HistoryFixture.T0;
import static org.tebaldi.core.history.HistoryFixture.k;
import static org.tebaldi.core.history.HistoryFixture.t;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link History#merge} indexes the logs of all nodes. */
class HistoryMergeTest {
    @Test
    void indexesTransactionsKeysReadsWritesAndOrders() {
        long a = t(0, 1);
        long b = t(3, 9);
        long c = t(1, 4);
        HistoryLog ds1 = new HistoryLog();
        HistoryLog ds2 = new HistoryLog();
        HistoryLog tc0 = new HistoryLog();
        HistoryLog tc1 = new HistoryLog();
        ds1.write(a, k(1), 2);
        ds1.write(a, k(1), 1);
        ds1.read(b, k(1), a, 2);
        ds1.versionOrder(k(1), new long[] {T0, a});
        ds2.read(c, k(2), T0, 1);
        ds2.write(b, k(2), 1);
        ds2.versionOrder(k(2), new long[] {T0});
        tc0.outcome(a, true, "NewOrder");
        tc1.outcome(b, false, "Payment");
        tc1.outcome(a, true, "NewOrder");

        History h = History.merge(List.of(ds1, ds2, tc0, tc1));
        assertTrue(h.recordProblems().isEmpty(), h.recordProblems()::toString);
        assertEquals(4, h.txnCount());
        assertEquals(History.INITIAL, h.txnIndex(T0));
        assertEquals(TxnStatus.COMMITTED, h.status(History.INITIAL));
        assertEquals("T0", h.label(History.INITIAL));
        int ia = h.txnIndex(a);
        int ib = h.txnIndex(b);
        int ic = h.txnIndex(c);
        assertEquals(a, h.txnId(ia));
        assertEquals(TxnStatus.COMMITTED, h.status(ia));
        assertEquals(TxnStatus.ABORTED, h.status(ib));
        assertEquals(TxnStatus.UNFINISHED, h.status(ic));
        assertEquals("NewOrder", h.type(ia));
        assertNull(h.type(ic));
        assertEquals("T3.9(Payment)", h.label(ib));
        assertEquals(-1, h.txnIndex(t(7, 7)));
        assertEquals(1, h.committedCount());
        assertEquals(1, h.abortedCount());
        assertEquals(1, h.unfinishedCount());

        assertEquals(2, h.keyCount());
        int k1 = h.keyIndex(k(1));
        int k2 = h.keyIndex(k(2));
        assertEquals(k(2), h.key(k2));
        assertEquals(-1, h.keyIndex(k(3)));
        assertEquals(2, h.finalWriteSeq(ia, k1));
        assertEquals(1, h.finalWriteSeq(ib, k2));
        assertEquals(0, h.finalWriteSeq(ia, k2));
        assertEquals(2, h.writtenPairCount());

        assertEquals(2, h.readCount());
        assertEquals(ib, h.readReader(0));
        assertEquals(k1, h.readKey(0));
        assertEquals(ia, h.readWriter(0));
        assertEquals(2, h.readWriteSeq(0));
        assertEquals(ic, h.readReader(1));
        assertEquals(History.INITIAL, h.readWriter(1));

        assertTrue(h.hasVersionOrder(k1));
        assertEquals(2, h.versionOrderLength(k1));
        assertEquals(ia, h.versionOrderAt(k1, 1));
        assertArrayEquals(new long[] {T0, a}, h.versionOrder(k(1)));
        assertArrayEquals(new long[] {T0}, h.versionOrder(k(2)));
        assertNull(h.versionOrder(k(3)));
        assertThrows(IndexOutOfBoundsException.class, () -> h.versionOrderAt(k2, 1));

        int[] seen = new int[1];
        h.forEachFinalWrite((w, key, seq) -> {
            seen[0]++;
            assertEquals(w == ia ? 2 : 1, seq);
        });
        assertEquals(2, seen[0]);
    }

    @Test
    void recordsMergeProblems() {
        long a = t(0, 1);
        HistoryLog log = new HistoryLog();
        log.outcome(T0, false, null);
        log.outcome(a, true, "X");
        log.outcome(a, true, "Y");
        log.write(a, k(1), 0);
        History h = History.merge(List.of(log));
        assertEquals(3, h.recordProblems().size(), h.recordProblems()::toString);
        assertTrue(h.recordProblems().get(0).contains("logged for T0"));
        assertTrue(h.recordProblems().get(1).contains("conflicting outcomes for T0.1: COMMITTED X vs COMMITTED Y"));
        assertTrue(h.recordProblems().get(2).contains("logged write #0"));
        assertEquals("X", h.type(h.txnIndex(a)));
        assertEquals(TxnStatus.COMMITTED, h.status(History.INITIAL));
        CheckResult r = SerializabilityChecker.check(h);
        assertEquals(3, r.violationCount(ViolationType.INCONSISTENT_RECORD), r::summary);
    }

    @Test
    void rejectsNullLogs() {
        assertThrows(NullPointerException.class, () -> History.merge(null));
        assertThrows(NullPointerException.class, () -> History.merge(Arrays.asList(new HistoryLog(), null)));
    }
}
