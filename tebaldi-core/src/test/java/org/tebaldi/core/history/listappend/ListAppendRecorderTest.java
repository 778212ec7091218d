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
}
