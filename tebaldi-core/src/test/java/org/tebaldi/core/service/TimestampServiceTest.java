package org.tebaldi.core.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.testkit.RecordingContext;

/**
 * The timestamp service's registry of unfinished batches: batch-order waits, {@link TsMessages.Forget}, requests
 * asked twice, and {@link TsMessages.Sync}.
 */
class TimestampServiceTest {
    private final List<Object> replies = new ArrayList<>();
    private final TimestampService ts = new TimestampService();
    private long reqIds = 100;

    TimestampServiceTest() {
        ts.onStart(new RecordingContext(TsClient.SERVICE, (to, msg) -> replies.add(((CcEnvelope) msg).payload())));
    }

    private void from(NodeId tc, int ccNode, Object payload) {
        ts.onMessage(tc, new CcEnvelope(ccNode, payload));
    }

    private long open(NodeId tc, int ccNode) {
        return open(tc, ccNode, ++reqIds);
    }

    private long open(NodeId tc, int ccNode, long reqId) {
        from(tc, ccNode, new TsMessages.OpenBatch(reqId, ccNode));
        return ((TsMessages.Issued) replies.get(replies.size() - 1)).ts();
    }

    private long watermark(int ccNode) {
        from(NodeId.ds(0), ccNode, new TsMessages.GetWatermark(1, ccNode));
        return ((TsMessages.Watermark) replies.remove(replies.size() - 1)).watermark();
    }

    @Test
    void forgetFinishesOnlyTheSendersBatchesOfThatNode() {
        long a = open(NodeId.tc(0), 0);
        open(NodeId.tc(0), 0);
        long c = open(NodeId.tc(1), 0);
        open(NodeId.tc(0), 1);
        from(NodeId.tc(1), 0, new TsMessages.AwaitBelow(7, 0, 100));
        from(NodeId.tc(1), 1, new TsMessages.AwaitBelow(8, 1, 100));
        replies.clear();
        from(NodeId.tc(0), 0, new TsMessages.Forget(0));
        assertEquals(List.of(), replies, "tc1's batch " + c + " at node 0 is still open");
        from(NodeId.tc(1), 0, new TsMessages.FinishBatch(0, c));
        assertEquals(List.of(new TsMessages.BelowDone(7)), replies, "node 0 has no batch left after " + a);
        replies.clear();
        from(NodeId.tc(1), 1, new TsMessages.Forget(1));
        assertEquals(List.of(), replies, "tc1 cannot forget tc0's batch at node 1");
        from(NodeId.tc(0), 1, new TsMessages.Forget(1));
        assertEquals(List.of(new TsMessages.BelowDone(8)), replies);
    }

    @Test
    void aBatchRequestAskedAgainGetsTheBatchItOpened() {
        long a = open(NodeId.tc(0), 0, 5);
        assertEquals(a, open(NodeId.tc(0), 0, 5), "the same request: the same batch");
        long b = open(NodeId.tc(1), 0, 5);
        assertNotEquals(a, b, "request ids are per sender");
        from(NodeId.tc(0), 0, new TsMessages.FinishBatch(0, a));
        assertEquals(b, watermark(0), "one finish ends the batch asked for twice");
        from(NodeId.tc(1), 0, new TsMessages.FinishBatch(0, b));
        assertEquals(b + 1, watermark(0), "no batch left");
    }

    @Test
    void aWaitAskedAgainIsAnsweredOnce() {
        long a = open(NodeId.tc(0), 0);
        from(NodeId.tc(1), 0, new TsMessages.AwaitBelow(7, 0, a + 1));
        from(NodeId.tc(1), 0, new TsMessages.AwaitBelow(7, 0, a + 1));
        replies.clear();
        from(NodeId.tc(0), 0, new TsMessages.FinishBatch(0, a));
        assertEquals(List.of(new TsMessages.BelowDone(7)), replies);
    }

    @Test
    void syncFinishesTheSendersBatchesItNoLongerAccountsFor() {
        long lostFinish = open(NodeId.tc(0), 0, 1); // its FinishBatch was lost
        long held = open(NodeId.tc(0), 0, 2);
        long inFlight = open(NodeId.tc(0), 0, 3); // its Issued is still on the way (request 3 unanswered)
        long otherNode = open(NodeId.tc(0), 1, 4);
        long otherTc = open(NodeId.tc(1), 0, 5);
        from(NodeId.tc(1), 0, new TsMessages.AwaitBelow(8, 0, held));
        replies.clear();
        from(NodeId.tc(0), 0, new TsMessages.Sync(9, 0, new long[] {held}, new long[] {3}));
        assertEquals(List.of(new TsMessages.BelowDone(8), new TsMessages.Synced(9)), replies,
                "batch " + lostFinish + " is finished, the wait below " + held + " is answered");
        assertEquals(held, watermark(0), held + ", " + inFlight + " (tc0) and " + otherTc + " (tc1) stay");
        assertEquals(otherNode, watermark(1), "tc0's batch at node 1 stays");
        from(NodeId.tc(0), 0, new TsMessages.Sync(10, 0, new long[0], new long[0]));
        assertEquals(otherTc, watermark(0), "tc0 holds nothing at node 0 any more; tc1's batch stays");
        assertEquals(otherTc, open(NodeId.tc(1), 0, 5), "tc1's request still finds its batch");
    }
}
