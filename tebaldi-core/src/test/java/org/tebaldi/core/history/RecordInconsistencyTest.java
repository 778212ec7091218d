package org.tebaldi.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.history.HistoryFixture.T0;
import static org.tebaldi.core.history.HistoryFixture.k;
import static org.tebaldi.core.history.HistoryFixture.t;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;

/** A record that contradicts itself must fail the check with {@link ViolationType#INCONSISTENT_RECORD}. */
class RecordInconsistencyTest {
    private static final Key X = k(1);

    private final long a = t(0, 1);
    private final long b = t(1, 1);

    /** Messages of the inconsistencies, asserting that nothing else was found. */
    private static List<String> inconsistencies(CheckResult r) {
        assertFalse(r.serializable(), r::summary);
        assertEquals(r.violationCount(), r.violationCount(ViolationType.INCONSISTENT_RECORD), r::summary);
        return r.violations().stream().map(Violation::message).toList();
    }

    private static void assertHas(List<String> messages, String fragment) {
        assertTrue(messages.stream().anyMatch(m -> m.contains(fragment)), () -> fragment + " not in " + messages);
    }

    @Test
    void committedWriterMissingFromTheVersionOrderAndItsReader() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X).read(b, X, a).commit(a, "W").commit(b, "R")
                .order(X, T0);
        CheckResult r = f.check();
        List<String> m = inconsistencies(r);
        assertEquals(2, m.size(), r::summary);
        assertHas(m, "committed T0.1(W) wrote t1[1] (final write #1) but is missing from its version order");
        assertHas(m, "committed T1.1(R) read t1[1] written by T0.1(W), a version missing from the key's version order");
        Violation read = r.violations().stream().filter(v -> v.message().contains("T1.1(R) read")).findFirst()
                .orElseThrow();
        assertEquals(List.of(b, a), read.txns());
    }

    @Test
    void keyWithoutAnyVersionOrder() {
        HistoryFixture f = new HistoryFixture().write(a, X).commit(a, "W");
        List<String> m = inconsistencies(f.check());
        assertEquals(List.of("committed T0.1(W) wrote t1[1] (final write #1) but is missing from its version order"
                + " (no version order was logged for the key)"), m);
    }

    @Test
    void versionOrderListingAnAbortedOrUnfinishedWriter() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X).abort(a, "W").write(b, X)
                .order(X, T0, a, b);
        List<String> m = inconsistencies(f.check());
        assertEquals(2, m.size(), m::toString);
        assertHas(m, "version order of t1[1] lists T0.1(W), which aborted");
        assertHas(m, "version order of t1[1] lists T1.1, which never finished");
    }

    @Test
    void versionOrderListingACommittedTransactionThatNeverWroteTheKey() {
        HistoryFixture f = new HistoryFixture().commit(a, "W").order(X, T0, a);
        assertEquals(List.of("version order of t1[1] lists T0.1(W), but no write of it to that key was logged"),
                inconsistencies(f.check()));
    }

    @Test
    void versionOrderWithADuplicateOrALateT0() {
        HistoryFixture f = new HistoryFixture().write(a, X).commit(a, "W").order(X, T0, a, T0, a);
        List<String> m = inconsistencies(f.check());
        assertEquals(2, m.size(), m::toString);
        assertHas(m, "version order of t1[1] lists T0 at position 2");
        assertHas(m, "version order of t1[1] lists T0.1(W) twice");
    }

    @Test
    void readOfAWriteSequenceNumberThatWasNeverLogged() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X).read(b, X, a, 3).commit(a, "W").commit(b, "R")
                .order(X, T0, a);
        assertEquals(List.of("committed T1.1(R) read t1[1] write #3 of T0.1(W), whose logged writes to that key are "
                + "#1..#1"), inconsistencies(f.check()));
    }

    @Test
    void logsDisagreeingOnAVersionOrderOrAnOutcome() {
        HistoryFixture f = new HistoryFixture()
                .write(a, X).write(b, X).commit(a, "W").commit(b, "W")
                .order(X, T0, a, b);
        f.log().versionOrder(X, new long[] {T0, b, a});
        f.log().outcome(a, false, "W");
        List<String> m = inconsistencies(f.check());
        assertEquals(2, m.size(), m::toString);
        assertHas(m, "logs disagree on the version order of t1[1] at position 1 (T0.1 vs T1.1; lengths 3 and 3)");
        assertHas(m, "conflicting outcomes for T0.1: COMMITTED W vs ABORTED W");
    }
}
