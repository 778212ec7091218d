package org.tebaldi.core.history.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.history.listappend.MicroOp.append;
import static org.tebaldi.core.history.listappend.MicroOp.read;
import static org.tebaldi.core.history.listappend.ObservedTxn.aborted;
import static org.tebaldi.core.history.listappend.ObservedTxn.committed;
import static org.tebaldi.core.history.listappend.ObservedTxn.unknown;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-built list-append histories: each anomaly is caught and named; valid histories pass. */
class ListAppendCheckerTest {
    private static List<Long> l(long... v) {
        return java.util.Arrays.stream(v).boxed().toList();
    }

    /** Asserts that exactly the given anomaly types were found (each at least once). */
    private static Result expectOnly(ListAppendHistory h, AnomalyType... types) {
        Result r = ListAppendChecker.check(h);
        java.util.Set<AnomalyType> want = java.util.Set.of(types);
        for (AnomalyType t : AnomalyType.values()) {
            assertEquals(want.contains(t), r.count(t) > 0, () -> t.code() + " in\n" + r.summary(20));
        }
        return r;
    }

    @Test
    void serialHistoryWithOwnReadsAbortsAndUnknownsIsValid() {
        ListAppendHistory h = new ListAppendHistory(List.of(
                committed(1, append("x", 1), read("x", l(1))),                   // reads its own append
                committed(2, read("x", l(1)), append("x", 2), append("y", 3), read("x", l(1, 2))),
                aborted(3, read("x", l(1, 2)), append("x", 99)),                // never observed
                unknown(4, append("y", 4)),                                    // observed: counted committed
                unknown(5, append("x", 77)),                                   // never observed: ignored
                committed(6, read("x", l(1, 2)), read("y", l(3, 4)))),
                Map.of("x", l(1, 2), "y", l(3, 4)));
        Result r = expectOnly(h);
        assertTrue(r.valid());
        assertEquals(1, r.stats().unknownCommitted());
        assertTrue(r.summary(5).startsWith("list-append: valid"), r.summary(5));
    }

    @Test
    void g0WriteCycle() {
        Result r = expectOnly(ListAppendHistory.of(
                committed(1, append("x", 1), append("y", 2)),
                committed(2, append("x", 3), append("y", 4)),
                committed(3, read("x", l(1, 3)), read("y", l(4, 2)))), AnomalyType.G0);
        Anomaly a = r.violations(AnomalyType.G0).get(0);
        assertEquals(2, a.cycle().size());
        assertTrue(a.cycle().stream().allMatch(e -> e.kind() == EdgeKind.WW), a::toString);
        assertTrue(a.detail().contains("-ww(x)->") && a.detail().contains("-ww(y)->"), a::toString);
    }

    @Test
    void g1aAbortedRead() {
        Result r = expectOnly(ListAppendHistory.of(
                aborted(1, append("x", 1)),
                committed(2, read("x", l(1)))), AnomalyType.G1A);
        assertEquals(List.of(2L, 1L), r.violations(AnomalyType.G1A).get(0).txns());
    }

    @Test
    void g1aInEveryReadThatSawTheValue() {
        Result r = expectOnly(ListAppendHistory.of(
                aborted(1, append("x", 1)),
                committed(2, append("x", 2)),
                committed(3, read("x", l(1))),                                 // a prefix of the longest read
                committed(4, read("x", l(1, 2)))), AnomalyType.G1A);
        assertEquals(2, r.count(AnomalyType.G1A), r::toString);
    }

    @Test
    void g1bIntermediateRead() {
        Result r = expectOnly(new ListAppendHistory(List.of(
                committed(1, append("x", 1), append("x", 2)),
                committed(2, read("x", l(1)))), Map.of("x", l(1, 2))), AnomalyType.G1B);
        assertEquals(List.of(2L, 1L), r.violations(AnomalyType.G1B).get(0).txns());
    }

    @Test
    void g1cCircularInformationFlow() {
        Result r = expectOnly(ListAppendHistory.of(
                committed(1, append("x", 1), read("y", l(2))),
                committed(2, append("y", 2), read("x", l(1)))), AnomalyType.G1C);
        assertTrue(r.violations(AnomalyType.G1C).get(0).cycle().stream().allMatch(e -> e.kind() == EdgeKind.WR));
    }

    @Test
    void gSingleReadSkew() {
        Result r = expectOnly(new ListAppendHistory(List.of(
                committed(1, append("x", 1), append("y", 2)),
                committed(2, read("x", l()), read("y", l(2)))), Map.of("x", l(1), "y", l(2))), AnomalyType.G_SINGLE);
        List<Anomaly.Edge> c = r.violations(AnomalyType.G_SINGLE).get(0).cycle();
        assertEquals(1, c.stream().filter(e -> e.kind() == EdgeKind.RW).count(), c::toString);
        assertTrue(r.summary(5).contains("G-single"), r.summary(5));
    }

    @Test
    void g2WriteSkew() {
        Result r = expectOnly(new ListAppendHistory(List.of(
                committed(1, read("x", l()), append("y", 1)),
                committed(2, read("y", l()), append("x", 2))), Map.of("x", l(2), "y", l(1))), AnomalyType.G2);
        List<Anomaly.Edge> c = r.violations(AnomalyType.G2).get(0).cycle();
        assertEquals(2, c.stream().filter(e -> e.kind() == EdgeKind.RW).count(), c::toString);
    }

    @Test
    void incompatibleOrders() {
        Result r = expectOnly(ListAppendHistory.of(
                committed(1, append("x", 1)),
                committed(2, append("x", 2)),
                committed(3, read("x", l(1, 2))),
                committed(4, read("x", l(2, 1)))), AnomalyType.INCOMPATIBLE_ORDER);
        assertTrue(r.violations(AnomalyType.INCOMPATIBLE_ORDER).get(0).detail().contains("[2, 1]"));
    }

    @Test
    void duplicatedAppend() {
        expectOnly(ListAppendHistory.of(
                committed(1, append("x", 1)),
                committed(2, read("x", l(1, 1)))), AnomalyType.DUPLICATE_APPEND);
    }

    @Test
    void lostAppendMissingFromTheFinalRead() {
        Result r = expectOnly(new ListAppendHistory(List.of(
                committed(1, append("x", 1)),
                committed(2, append("x", 2)),
                unknown(3, append("x", 3))),                                   // unknown and unseen: not lost
                Map.of("x", l(2))), AnomalyType.LOST_APPEND);
        assertEquals(1, r.count(AnomalyType.LOST_APPEND));
        assertEquals(List.of(1L), r.violations(AnomalyType.LOST_APPEND).get(0).txns());
    }

    @Test
    void garbageRead() {
        expectOnly(ListAppendHistory.of(committed(1, read("x", l(42)))), AnomalyType.GARBAGE_READ);
    }

    @Test
    void readsOfAbortedTransactionsAreNotTrusted() {
        expectOnly(ListAppendHistory.of(
                committed(1, append("x", 1)),
                aborted(2, read("x", l(7, 1)))));
    }

    @Test
    void aValueAppendedTwiceIsRejectedWithAClearMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ListAppendChecker.check(
                ListAppendHistory.of(committed(1, append("x", 5)), committed(2, append("x", 5)))));
        assertTrue(e.getMessage().contains("value 5 appended twice to key x"), e.getMessage());
    }

    @Test
    void summaryIsBounded() {
        ListAppendHistory h = ListAppendHistory.of(
                committed(1, read("x", l(1))), committed(2, read("x", l(2))), committed(3, read("x", l(3))));
        Result r = ListAppendChecker.check(h);
        assertFalse(r.valid());
        String s = r.summary(1);
        assertTrue(s.startsWith("list-append: INVALID: 5 anomalies"), s);
        assertTrue(s.contains("... and 4 more anomalies"), s);
    }
}
