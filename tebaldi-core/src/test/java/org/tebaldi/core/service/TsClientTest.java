package org.tebaldi.core.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.CcServices;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.SimulatedRuntime;

/**
 * {@link TsClient} against the {@link TimestampService} on the simulated runtime, with connections that drop
 * (messages in flight lost, nothing resent by the transport): a lost timestamp reply is asked for again and gets
 * the batch its request opened; a lost finish is reconciled; a dropped part's late reply is never taken by the
 * part that replaced it.
 */
class TsClientTest {
    private static final long WAIT = 10_000;
    private static final NodeId HOST = NodeId.tc(0);
    private static final NodeId OTHER = NodeId.tc(1);

    /** A node hosting the timestamp client of CC node 0, as a coordinator hosts its CC parts' clients. */
    private static final class Host implements Actor, CcServices {
        NodeContext ctx;
        TsClient client;
        private long requestIds;

        @Override
        public void onStart(NodeContext ctx) {
            this.ctx = ctx;
            this.client = new TsClient(this, 0);
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            if (msg instanceof CcEnvelope e) {
                client.handle(e.payload());
            }
        }

        @Override
        public Database database() {
            return null;
        }

        @Override
        public NodeId self() {
            return ctx.self();
        }

        @Override
        public long nowMicros() {
            return ctx.nowMicros();
        }

        @Override
        public Cancellable schedule(long delayMicros, Runnable task) {
            return ctx.schedule(delayMicros, task);
        }

        @Override
        public long newRequestId() {
            return ++requestIds;
        }

        @Override
        public void send(NodeId to, int ccNode, Object payload) {
            ctx.send(to, new CcEnvelope(ccNode, payload));
        }

        @Override
        public long waitTimeoutMicros() {
            return WAIT;
        }

        @Override
        public BlockingSink blocking() {
            return null;
        }

        @Override
        public void later(Runnable task) {
            ctx.schedule(0, task);
        }
    }

    private final SimulatedRuntime sim = new SimulatedRuntime(3, new SimulatedRuntime.Model(100, 100, 0, 0));
    private final Host host = new Host();
    private final Host other = new Host();

    TsClientTest() {
        sim.spawn(TsClient.SERVICE, new TimestampService());
        sim.spawn(HOST, host);
        sim.spawn(OTHER, other);
        sim.runUntil(1);
    }

    /** Whether CC node 0 has no unfinished batch below {@code ts} by {@code byMicros} (asked from the other node). */
    private boolean nothingOpenBelow(long ts, long askMicros, long byMicros) {
        boolean[] done = {false};
        sim.at(askMicros, () -> other.client.awaitBelow(ts, () -> done[0] = true));
        sim.runUntil(byMicros);
        return done[0];
    }

    @Test
    void aLostTimestampReplyIsAskedForAgainAndGetsTheBatchItsRequestOpened() {
        List<Long> got = new ArrayList<>();
        sim.at(1_000, () -> host.client.openBatch(got::add));
        sim.faults().dropLink(TsClient.SERVICE, HOST, 1_150, 1_160); // the reply leaves at 1,100 µs and would land at 1,200
        sim.runUntil(1_000 + 3 * WAIT);
        assertEquals(1, sim.faults().lostMessages());
        assertEquals(1, got.size(), "the timestamp arrived once: " + got);
        long ts = got.get(0);
        sim.at(sim.nowMicros() + 10, () -> host.client.finishBatch(ts));
        long t = sim.nowMicros() + 20;
        assertTrue(nothingOpenBelow(Long.MAX_VALUE, t, t + 1_000),
                "the request asked twice registered one batch, and finishing it leaves none");
    }

    @Test
    void aLostFinishIsReconciledByTheClientsViewOfItsBatches() {
        List<Long> got = new ArrayList<>();
        sim.at(1_000, () -> host.client.openBatch(got::add));
        sim.runUntil(1_500);
        long ts = got.get(0);
        sim.at(2_000, () -> host.client.finishBatch(ts));
        sim.faults().dropLink(TsClient.SERVICE, HOST, 2_050, 2_060);
        assertTrue(nothingOpenBelow(ts + 1, 2_200, 2_000 + 3 * WAIT),
                "the batch whose finish was lost is finished by the next view");
        assertEquals(1, sim.faults().lostMessages());
    }

    @Test
    void aDroppedPartsLateReplyIsNotTakenByItsReplacement() {
        List<Long> old = new ArrayList<>();
        List<Long> fresh = new ArrayList<>();
        TsClient[] replacement = new TsClient[1];
        sim.at(1_000, () -> {
            host.client.openBatch(old::add);
            host.client.forget(); // the part is dropped with its request on the way: the reply reaches the new part
            replacement[0] = new TsClient(host, 0);
            host.client = replacement[0];
            host.client.openBatch(fresh::add);
        });
        sim.runUntil(2_000);
        assertEquals(List.of(), old);
        assertEquals(1, fresh.size(), "the replacement got one batch: " + fresh);
        long ts = fresh.get(0);
        boolean[] below = {false};
        sim.at(2_100, () -> other.client.awaitBelow(ts + 1, () -> below[0] = true));
        sim.runUntil(2_500);
        assertTrue(!below[0], "the replacement's batch " + ts + " is registered (not the dropped part's, forgotten)");
        sim.at(2_600, () -> replacement[0].finishBatch(ts));
        sim.runUntil(3_000);
        assertTrue(below[0], "finished, with the dropped part's batch forgotten");
    }
}
