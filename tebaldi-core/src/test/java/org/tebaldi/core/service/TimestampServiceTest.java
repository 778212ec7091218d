package org.tebaldi.core.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;

/** The timestamp service's registry of unfinished batches: batch-order waits and {@link TsMessages.Forget}. */
class TimestampServiceTest {
    private final List<Object> replies = new ArrayList<>();
    private final TimestampService ts = new TimestampService();

    TimestampServiceTest() {
        ts.onStart(new NodeContext() {
            @Override
            public NodeId self() {
                return TsClient.SERVICE;
            }

            @Override
            public void send(NodeId to, Object msg) {
                replies.add(((CcEnvelope) msg).payload());
            }

            @Override
            public Cancellable schedule(long delayMicros, Runnable task) {
                return () -> { };
            }

            @Override
            public long nowMicros() {
                return 0;
            }

            @Override
            public Random random() {
                return new Random(0);
            }
        });
    }

    private void from(NodeId tc, int ccNode, Object payload) {
        ts.onMessage(tc, new CcEnvelope(ccNode, payload));
    }

    private long open(NodeId tc, int ccNode) {
        from(tc, ccNode, new TsMessages.OpenBatch(0, ccNode));
        return ((TsMessages.Issued) replies.get(replies.size() - 1)).ts();
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
}
