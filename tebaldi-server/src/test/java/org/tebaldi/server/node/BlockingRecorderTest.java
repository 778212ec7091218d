package org.tebaldi.server.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.profile.BlockingBatch;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;

/**
 * The profiler's sampling module ({@link BlockingRecorder}, dissertation §5.3.2) on a simulated node: every event
 * reaches the monitor within {@code flushMicros} of being recorded, whether the node records steadily, in bursts or
 * once, and a node that records nothing schedules nothing (the simulation goes idle).
 */
class BlockingRecorderTest {
    private static final long FLUSH = 20_000;
    private static final NodeId MONITOR = new NodeId(Role.MONITOR, 0);
    private static final NodeId NODE = new NodeId(Role.DS, 0);

    /** Records one event (begin = end = now) at each of the given instants, µs after its start. */
    private static final class Recording extends NodeBase {
        private final long[] at;

        Recording(long[] at) {
            this.at = at;
        }

        @Override
        protected ClusterConfig config() {
            throw new UnsupportedOperationException();
        }

        @Override
        protected void started() {
            enableProfiling(MONITOR, FLUSH);
            for (long t : at) {
                schedule(t, () -> blocking().blocked(1, 0, 2, 0, nowMicros(), nowMicros()));
            }
        }

        @Override
        protected void handle(NodeId from, Object msg) {
        }
    }

    /** Arrival time of every event, and the batches. */
    private static final class Monitor implements Actor {
        final List<long[]> arrivals = new ArrayList<>(); // {recorded µs, arrived µs}
        int batches;
        NodeContext ctx;

        @Override
        public void onStart(NodeContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            long[] ev = ((BlockingBatch) msg).events();
            batches++;
            for (int i = 0; i < ev.length; i += BlockingBatch.STRIDE) {
                arrivals.add(new long[] {ev[i + 4], ctx.nowMicros()});
            }
        }
    }

    private static Monitor run(long[] at) {
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0));
        Monitor m = new Monitor();
        sim.spawn(MONITOR, m);
        sim.spawn(NODE, new Recording(at));
        sim.runUntil(10_000_000);
        assertTrue(sim.idle(), "a node with nothing buffered leaves no timer behind");
        sim.close();
        return m;
    }

    private static void assertEachWithinFlush(Monitor m, int events) {
        assertEquals(events, m.arrivals.size());
        for (long[] a : m.arrivals) {
            assertTrue(a[1] - a[0] <= FLUSH, "event recorded at " + a[0] + " µs arrived at " + a[1] + " µs");
        }
    }

    @Test
    void aSteadyStreamLeavesBeforeTheTimerIsDue() {
        long[] at = new long[200];
        for (int i = 0; i < at.length; i++) {
            at[i] = 1_000 + i * 1_000L; // one event per ms, for 200 ms
        }
        Monitor m = run(at);
        assertEachWithinFlush(m, at.length);
        // sent when an event comes half a flush period after the batch's first: 10 or 11 events a batch
        assertTrue(m.batches >= 18 && m.batches <= 21, m.batches + " batches");
    }

    @Test
    void aLoneEventLeavesOnTheTimer() {
        Monitor m = run(new long[] {5_000});
        assertEachWithinFlush(m, 1);
        assertEquals(5_000 + FLUSH, m.arrivals.get(0)[1]);
    }

    @Test
    void burstsAndPausesEachLeaveWithinFlush() {
        long[] at = {1_000, 1_001, 9_000, 10_999, 11_000, 50_000, 70_000, 89_999, 90_000, 300_000};
        Monitor m = run(at);
        assertEachWithinFlush(m, at.length);
    }

    @Test
    void aFullBufferLeavesAtOnce() {
        long[] at = new long[BlockingRecorder.CAPACITY + 1];
        java.util.Arrays.fill(at, 3_000);
        Monitor m = run(at);
        assertEachWithinFlush(m, at.length);
        assertEquals(2, m.batches);
        assertEquals(3_000, m.arrivals.get(0)[1]);
    }
}
