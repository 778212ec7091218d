package org.tebaldi.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.history.HistoryFixture.T0;
import static org.tebaldi.core.history.HistoryFixture.k;
import static org.tebaldi.core.history.HistoryFixture.t;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;

/** Histories with a non-serializable anomaly (Adya 1999; dissertation §2.2.3) must be reported as such. */
class AnomalyDetectionTest {
    private static final Key X = k(1);
    private static final Key Y = k(2);
    private static final Key Z = k(3);

    private final long a = t(0, 1);
    private final long b = t(1, 1);
    private final long c = t(2, 7);

    /** The only violation of {@code r}, which must be of {@code type}. */
    private static Violation only(CheckResult r, ViolationType type) {
        assertFalse(r.serializable(), r::summary);
        assertEquals(1, r.violationCount(), r::summary);
        assertEquals(1, r.violationCount(type), r::summary);
        Violation v = r.violations().get(0);
        assertEquals(type, v.type());
        return v;
    }

    private static Set<Long> set(List<Long> l) {
        return Set.copyOf(l);
    }

    private static Set<EdgeType> edgeTypes(Violation v) {
        return v.cycle().stream().map(DsgEdge::type).collect(Collectors.toSet());
    }

    @Test
    void writeSkewIsAnRwCycle() {
        HistoryFixture f = new HistoryFixture()
                .read(a, X, T0).read(a, Y, T0).write(a, X)
                .read(b, X, T0).read(b, Y, T0).write(b, Y)
                .commit(a, "A").commit(b, "B")
                .order(X, T0, a).order(Y, T0, b);
        CheckResult r = f.check();
        Violation v = only(r, ViolationType.ANTI_DEPENDENCY_CYCLE);
        assertEquals(Set.of(a, b), set(v.txns()));
        assertEquals(Set.of(EdgeType.RW), edgeTypes(v));
        assertTrue(v.message().contains("cycle: T0.1(A) -rw(t1[2])-> T1.1(B) -rw(t1[1])-> T0.1(A)"), v.message());
        assertEquals(List.of(new DsgEdge(a, b, EdgeType.RW, Y), new DsgEdge(b, a, EdgeType.RW, X)), v.cycle());
        assertTrue(r.summary().contains("G2=1"), r.summary());
        assertTrue(r.summary().contains("[G2]"), r.summary());
    }

    @Test
    void lostUpdateIsAWwRwCycle() {
        HistoryFixture f = new HistoryFixture()
                .read(a, X, T0).read(b, X, T0).write(a, X).write(b, X)
                .commit(a, "Inc").commit(b, "Inc")
                .order(X, T0, a, b);
        Violation v = only(f.check(), ViolationType.ANTI_DEPENDENCY_CYCLE);
        assertEquals(List.of(new DsgEdge(a, b, EdgeType.WW, X), new DsgEdge(b, a, EdgeType.RW, X)), v.cycle());
        assertTrue(v.message().contains("T0.1(Inc) -ww(t1[1])-> T1.1(Inc) -rw(t1[1])-> T0.1(Inc)"), v.message());
    }

    @Test
    void readOnlyTransactionSeeingTwoSnapshotsIsACycle() {
        // read skew: c sees a's x but the state of y before a
        HistoryFixture f = new HistoryFixture()
                .write(a, X).write(a, Y).commit(a, "W")
                .read(c, X, a).read(c, Y, T0).commit(c, "R")
                .order(X, T0, a).order(Y, T0, a);
        Violation v = only(f.check(), ViolationType.ANTI_DEPENDENCY_CYCLE);
        assertEquals(Set.of(a, c), set(v.txns()));
        assertEquals(Set.of(EdgeType.WR, EdgeType.RW), edgeTypes(v));
        assertTrue(v.message().contains("T0.1(W) -wr(t1[1])-> T2.7(R) -rw(t1[2])-> T0.1(W)"), v.message());
    }

    @Test
    void readOfAnAbortedWriteIsG1a() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X).abort(a, "W")
                .read(b, X, a).commit(b, "R")
                .order(X, T0);
        Violation v = only(f.check(), ViolationType.ABORTED_READ);
        assertEquals(List.of(b, a), v.txns());
        assertTrue(v.message().contains("T1.1(R) read t1[1] write #1 of T0.1(W), which aborted"), v.message());
        assertTrue(v.toString().startsWith("[G1a] "), v::toString);
    }

    @Test
    void readOfAnUnfinishedWriteIsG1a() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X)
                .read(b, X, a).commit(b, "R")
                .order(X, T0);
        Violation v = only(f.check(), ViolationType.ABORTED_READ);
        assertEquals(List.of(b, a), v.txns());
        assertTrue(v.message().contains("T0.1, which never finished"), v.message());
    }

    @Test
    void readOfAnOverwrittenWriteIsG1b() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X).read(b, X, a, 1).write(a, X).commit(a, "W").commit(b, "R")
                .order(X, T0, a);
        Violation v = only(f.check(), ViolationType.INTERMEDIATE_READ);
        assertEquals(List.of(b, a), v.txns());
        assertTrue(v.message().contains("T1.1(R) read t1[1] write #1 of T0.1(W), whose final write to that key is #2"),
                v.message());
        assertTrue(v.toString().startsWith("[G1b] "), v::toString);
    }

    @Test
    void mutualReadsAreAG1cCycle() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X).read(b, X, a).write(b, Y).read(a, Y, b)
                .commit(a, "A").commit(b, "B")
                .order(X, T0, a).order(Y, T0, b);
        Violation v = only(f.check(), ViolationType.CIRCULAR_FLOW);
        assertEquals(Set.of(a, b), set(v.txns()));
        assertEquals(Set.of(EdgeType.WR), edgeTypes(v));
        assertTrue(v.message().contains("T0.1(A) -wr(t1[1])-> T1.1(B) -wr(t1[2])-> T0.1(A)"), v.message());
        assertTrue(v.toString().startsWith("[G1c] "), v::toString);
    }

    @Test
    void contradictoryVersionOrdersAreAWwCycle() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X).write(a, Y).write(b, X).write(b, Y)
                .commit(a, "A").commit(b, "B")
                .order(X, T0, a, b).order(Y, T0, b, a);
        Violation v = only(f.check(), ViolationType.CIRCULAR_FLOW);
        assertEquals(List.of(new DsgEdge(a, b, EdgeType.WW, X), new DsgEdge(b, a, EdgeType.WW, Y)), v.cycle());
    }

    @Test
    void componentWithADependencyCycleIsReportedAsG1cOnce() {
        // a <-> b by wr; c joins the component through wr a->c and rw c->a
        HistoryFixture f = new HistoryFixture()
                .write(a, X).read(b, X, a).write(b, Y).read(a, Y, b)
                .read(c, X, a).read(c, Z, T0).write(a, Z)
                .commit(a, "A").commit(b, "B").commit(c, "C")
                .order(X, T0, a).order(Y, T0, b).order(Z, T0, a);
        CheckResult r = f.check();
        Violation v = only(r, ViolationType.CIRCULAR_FLOW);
        assertEquals(Set.of(a, b), set(v.txns()));
        assertTrue(v.message().contains("strongly connected component of 3"), v.message());
        assertEquals(0, r.violationCount(ViolationType.ANTI_DEPENDENCY_CYCLE));
    }

    @Test
    void everyComponentGetsItsOwnCycle() {
        long d = t(3, 1);
        HistoryFixture f = new HistoryFixture()
                .read(a, X, T0).write(a, Y).read(b, Y, T0).write(b, X)
                .read(c, Z, T0).write(c, k(4)).read(d, k(4), T0).write(d, Z)
                .commit(a, "A").commit(b, "B").commit(c, "C").commit(d, "D")
                .order(X, T0, b).order(Y, T0, a).order(Z, T0, d).order(k(4), T0, c);
        CheckResult r = f.check();
        assertEquals(2, r.violationCount(ViolationType.ANTI_DEPENDENCY_CYCLE), r::summary);
        assertEquals(2, r.violationCount(), r::summary);
        Set<Set<Long>> cycles = r.violations().stream().map(v -> set(v.txns())).collect(Collectors.toSet());
        assertEquals(Set.of(Set.of(a, b), Set.of(c, d)), cycles);
    }

    @Test
    void cycleThroughAKeyInsertedAfterTheLoadIsFound() {
        // x and y were never loaded (their orders do not list T0): both transactions read their absence, then
        // each inserts the key the other read - write skew on inserts.
        HistoryFixture f = new HistoryFixture()
                .read(a, X, T0).read(b, Y, T0).write(a, Y).write(b, X)
                .commit(a, "A").commit(b, "B")
                .order(X, b).order(Y, a);
        Violation v = only(f.check(), ViolationType.ANTI_DEPENDENCY_CYCLE);
        assertEquals(List.of(new DsgEdge(a, b, EdgeType.RW, X), new DsgEdge(b, a, EdgeType.RW, Y)), v.cycle());
    }

    @Test
    void summaryCapsPrintedViolationsAndStorageIsCapped() {
        HistoryFixture f = new HistoryFixture().write(a, X).abort(a, "W").order(X, T0);
        for (int i = 1; i <= 50; i++) {
            f.read(t(5, i), X, a).commit(t(5, i), "R");
        }
        CheckResult r = f.check();
        assertEquals(50, r.violationCount(ViolationType.ABORTED_READ));
        String s = r.summary();
        assertEquals(2 + 20 + 1, s.split("\n").length, s);
        assertTrue(s.startsWith("NOT serializable: 50 violation(s) (G1a=50)"), s);
        assertTrue(s.endsWith("... and 30 more violation(s)"), s);
        assertTrue(s.contains("50 committed, 1 aborted, 0 unfinished"), s);

        CheckResult capped = SerializabilityChecker.check(f.history(), 5);
        assertEquals(5, capped.violations().size());
        assertEquals(50, capped.violationCount());
        assertFalse(capped.serializable());
    }
}
