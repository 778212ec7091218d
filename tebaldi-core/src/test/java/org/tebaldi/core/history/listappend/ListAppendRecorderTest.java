package org.tebaldi.core.history.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The recorder keeps program order, the first outcome, unfinished attempts as unknown, and final reads. */
class ListAppendRecorderTest {
    @Test
    void recordsAttemptsInOrderWithOutcomes() {
        ListAppendRecorder rec = new ListAppendRecorder();
        ListAppendRecorder.Attempt a = rec.begin();
        a.read("x", List.of());
        a.append("x", 1);
        a.end(Outcome.COMMITTED);
        a.end(Outcome.ABORTED); // ignored: the first outcome counts
        ListAppendRecorder.Attempt b = rec.begin();
        b.append("x", 2); // never ends
        rec.finalRead("x", List.of(1L, 2L));
        ListAppendHistory h = rec.history();
        assertEquals(List.of(new ObservedTxn(1, Outcome.COMMITTED, List.of(MicroOp.read("x", List.of()),
                MicroOp.append("x", 1))), new ObservedTxn(2, Outcome.UNKNOWN, List.of(MicroOp.append("x", 2)))),
                h.txns());
        assertEquals(Map.of("x", List.of(1L, 2L)), h.finalReads());
        Result r = ListAppendChecker.check(h);
        assertEquals(1, r.stats().unknownCommitted(), r.summary(3));
        assertEquals(true, r.valid(), r.summary(3));
    }

    /**
     * A crash keeps durable commits only: a commit without its durable notification becomes unknown, so a value it
     * read from a lost writer is no anomaly — the same history without the crash call is a lost append.
     */
    @Test
    void aCrashTurnsCommitsThatWereNotDurableIntoUnknowns() {
        assertEquals(false, ListAppendChecker.check(lostWriteHistory(false).history()).valid(), "1 is lost");
        ListAppendRecorder rec = lostWriteHistory(true);
        assertEquals(List.of(Outcome.UNKNOWN, Outcome.UNKNOWN, Outcome.COMMITTED, Outcome.COMMITTED),
                rec.history().txns().stream().map(ObservedTxn::outcome).toList());
        Result res = ListAppendChecker.check(rec.history());
        assertEquals(true, res.valid(), res.summary(3));
    }

    private static ListAppendRecorder lostWriteHistory(boolean crash) {
        ListAppendRecorder rec = new ListAppendRecorder();
        ListAppendRecorder.Attempt w = rec.begin();
        w.append("x", 1);
        w.end(Outcome.COMMITTED); // acknowledged, never durable: lost in the crash
        ListAppendRecorder.Attempt r = rec.begin();
        r.read("x", List.of(1L));
        r.end(Outcome.COMMITTED); // read the lost write: lost too
        ListAppendRecorder.Attempt d = rec.begin();
        d.append("y", 5);
        d.end(Outcome.COMMITTED);
        d.durable();
        if (crash) {
            rec.crash();
        }
        ListAppendRecorder.Attempt after = rec.begin();
        after.append("x", 2);
        after.end(Outcome.COMMITTED);
        rec.finalRead("x", List.of(2L));
        rec.finalRead("y", List.of(5L));
        return rec;
    }
}
