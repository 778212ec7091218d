package org.tebaldi.cc.ssi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.testkit.RecordingContext;

/** The batch manager's pivot check (dissertation §4.4.3): which checks it refuses, and which edges it keeps. */
class BatchManagerTest {
    private static final NodeId TC = new NodeId(Role.TC, 0);
    private final BatchManager bm = new BatchManager();
    private final RecordingContext ctx = new RecordingContext(new NodeId(Role.BATCH, 0));

    BatchManagerTest() {
        bm.startTerm(1);
        bm.onStart(ctx);
    }

    /** Check of a member of {@code batch}; {@code edges}: reader batch, writer batch, pairwise. Its verdict. */
    private PivotMessages.Verdict check(long batch, long cts, long... edges) {
        bm.onMessage(TC, new CcEnvelope(0, new PivotMessages.Check(verdicts().size(), batch, cts, edges)));
        List<PivotMessages.Verdict> v = verdicts();
        return v.get(v.size() - 1);
    }

    private List<PivotMessages.Verdict> verdicts() {
        return ctx.messages().stream().filter(m -> m instanceof CcEnvelope e && e.payload() instanceof
                PivotMessages.Verdict).map(m -> (PivotMessages.Verdict) ((CcEnvelope) m).payload()).toList();
    }

    @Test
    void theSecondEdgeOfAPivotIsRefused() {
        assertFalse(check(10, 100, 10, 20).abort(), "10 -rw-> 20: batch 20 has an incoming edge only");
        PivotMessages.Verdict v = check(30, 101, 20, 30);
        assertTrue(v.abort(), "20 -rw-> 30 would make batch 20 a pivot");
        assertTrue(v.reason().contains("batch 20"), v.reason());
    }

    @Test
    void aRefusedChecksEdgesAreNotKept() {
        check(10, 100, 10, 20);
        assertTrue(check(30, 101, 20, 30).abort());
        // the refused transaction aborted: 20 -rw-> 30 does not exist, so batch 20 still has an incoming edge only
        assertFalse(check(40, 102, 40, 20).abort(), "40 -rw-> 20 meets no pivot");
        assertFalse(check(30, 103).abort(), "batch 30 gained no incoming edge from the refused check");
        // a passed check's edges are kept: now 20 -rw-> 50 makes 20 a pivot
        assertTrue(check(50, 104, 20, 50).abort());
        assertEquals(5, verdicts().size());
    }

    @Test
    void aTransactionThatIsItselfThePivotIsRefused() {
        check(10, 100, 10, 20); // 20 has an incoming edge
        assertTrue(check(20, 101, 20, 30).abort(), "20's own member brings its outgoing edge");
    }
}
