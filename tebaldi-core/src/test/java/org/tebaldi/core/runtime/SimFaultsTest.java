package org.tebaldi.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fault primitives of {@link SimulatedRuntime}, each on two or three tiny actors. */
class SimFaultsTest {
    /** Records (arrival µs, sender, payload) of what it receives; sends on demand. */
    private static final class Node implements Actor {
        final List<long[]> got = new ArrayList<>();
        NodeContext ctx;
        int starts;

        @Override
        public void onStart(NodeContext ctx) {
            this.ctx = ctx;
            starts++;
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            got.add(new long[] {ctx.nowMicros(), from.index(), (Integer) msg});
        }

        List<Integer> payloads() {
            return got.stream().map(g -> (int) g[2]).toList();
        }
    }

    private static final NodeId A = NodeId.tc(0);
    private static final NodeId B = NodeId.ds(0);
    private static final NodeId C = NodeId.ds(1);

    private static SimulatedRuntime sim(Node a, Node b, Node c) {
        SimulatedRuntime s = new SimulatedRuntime(7, new SimulatedRuntime.Model(100, 100, 0, 0));
        s.spawn(A, a);
        s.spawn(B, b);
        s.spawn(C, c);
        s.runUntil(1);
        return s;
    }

    /** Sends payloads 0..n-1 from a to {@code to}, one every {@code gapMicros} starting at {@code fromMicros}. */
    private static void stream(SimulatedRuntime s, Node a, NodeId to, int n, long fromMicros, long gapMicros) {
        for (int i = 0; i < n; i++) {
            int p = i;
            s.at(fromMicros + i * gapMicros, () -> a.ctx.send(to, p));
        }
    }

    @Test
    void aDelaySpikeDelaysItsLinkOnlyAndKeepsItFifo() {
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        SimulatedRuntime s = sim(a, b, c);
        s.faults().delaySpike(A, B, 1_000, 1_050, 500);
        stream(s, a, B, 10, 1_000, 10);
        stream(s, a, C, 10, 1_000, 10);
        s.runUntil(5_000);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), b.payloads());
        assertEquals(1_000 + 100 + 500, b.got.get(0)[0], "sent at 1000 µs, 100 µs delay + 500 µs spike");
        for (int i = 1; i < 10; i++) {
            assertTrue(b.got.get(i)[0] >= b.got.get(i - 1)[0], "FIFO on the spiked link");
        }
        assertEquals(1_100, c.got.get(0)[0], "the other link is not delayed");
        assertEquals(1, s.faults().counts().get("delay-spike"));
    }

    @Test
    void aDroppedConnectionLosesWhatIsInFlightAndDeliversWhatWasQueuedAfterReconnectingInOrder() {
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        SimulatedRuntime s = sim(a, b, c);
        stream(s, a, B, 3, 1_000, 10);      // in flight at 1050 (arrive 1100..1120): lost
        stream(s, a, B, 4, 1_060, 10);      // sent while down: delivered after 2000, in order
        stream(s, a, C, 3, 1_000, 10);      // another link: untouched
        s.at(1_010, () -> b.ctx.send(A, 99)); // the reverse direction is the same connection: lost too
        s.faults().dropLink(A, B, 1_050, 2_000);
        stream(s, a, B, 2, 2_500, 10);      // after: normal
        s.runUntil(5_000);
        assertEquals(List.of(0, 1, 2, 3, 0, 1), b.payloads(), "the first three were lost");
        assertTrue(b.got.get(0)[0] >= 2_000 + 100, "queued messages leave once reconnected");
        assertEquals(List.of(0, 1, 2), c.payloads());
        assertTrue(a.got.isEmpty(), "the reply in flight on the same connection was lost");
        assertEquals(4, s.faults().lostMessages());
    }

    @Test
    void aSkewedClockReadsOffsetAndDriftAndItsTimersFollowIt() {
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        SimulatedRuntime s = sim(a, b, c);
        s.runUntil(1_000);
        s.faults().clockSkew(A, 5_000_000, 100_000); // 5 s ahead, 10% fast
        s.runUntil(2_000);
        assertEquals(2_000 + 5_000_000 + 100, a.ctx.nowMicros());
        assertEquals(2_000, b.ctx.nowMicros(), "other clocks are not skewed");
        long[] fired = {-1};
        a.ctx.schedule(1_100, () -> fired[0] = s.nowMicros());
        s.runUntil(10_000);
        assertEquals(3_000, fired[0], "1100 µs of its fast clock pass in 1000 virtual µs");
        assertThrows(IllegalArgumentException.class, () -> s.faults().clockSkew(A, 0, -1_000_000));
    }

    @Test
    void aPausedNodeRunsNothingUntilItResumesThenEverythingInOrder() {
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        SimulatedRuntime s = sim(a, b, c);
        s.faults().pause(B, 1_000, 3_000);
        stream(s, a, B, 5, 1_000, 100);
        s.runUntil(2_999);
        assertTrue(b.got.isEmpty());
        s.runUntil(10_000);
        assertEquals(List.of(0, 1, 2, 3, 4), b.payloads());
        assertTrue(b.got.stream().allMatch(g -> g[0] >= 3_000));
    }

    @Test
    void aCrashedNodeGetsNothingMoreAndARespawnedOneStartsAfresh() {
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        SimulatedRuntime s = sim(a, b, c);
        stream(s, a, B, 3, 1_000, 10);
        s.at(1_050, () -> s.faults().crash(B));
        stream(s, a, B, 3, 1_200, 10);
        long[] timerFired = {0};
        s.at(900, () -> b.ctx.schedule(500, () -> timerFired[0]++));
        s.runUntil(2_000);
        assertTrue(b.got.isEmpty(), "in flight at the crash, or sent after it: dropped");
        assertEquals(0, timerFired[0], "its timers died with it");
        assertTrue(s.faults().crashed(B));
        assertThrows(IllegalArgumentException.class, () -> s.faults().crash(B));
        Node b2 = new Node();
        s.faults().respawn(B, b2);
        stream(s, a, B, 2, 2_100, 10);
        s.runUntil(5_000);
        assertEquals(1, b2.starts);
        assertEquals(List.of(0, 1), b2.payloads());
        assertThrows(IllegalArgumentException.class, () -> s.faults().respawn(C, new Node()));
    }

    @Test
    void aFailureNoticeArrivesAfterWhatTheDeadNodeSentBefore() {
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        SimulatedRuntime s = sim(a, b, c);
        s.faults().delaySpike(A, B, 1_000, 1_001, 3_000);
        s.at(1_000, () -> a.ctx.send(B, 1));
        s.at(1_010, () -> {
            s.faults().crash(A);
            s.notifyAfterLink(A, B, 2, 10);
            s.notifyAfterLink(A, C, 2, 10);
        });
        s.runUntil(10_000);
        assertEquals(List.of(1, 2), b.payloads(), "the notice follows the delayed message");
        assertEquals(List.of(2), c.payloads());
        assertEquals(1_020, c.got.get(0)[0]);
    }

    @Test
    void faultsReplayExactlyPerSeed() {
        assertEquals(run(11), run(11));
    }

    private static List<String> run(long seed) {
        SimulatedRuntime s = new SimulatedRuntime(seed, SimulatedRuntime.Model.jittery());
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        s.spawn(A, a);
        s.spawn(B, b);
        s.spawn(C, c);
        s.faults().delaySpike(null, B, 100, 600, 250);
        s.faults().dropLink(A, C, 300, 900);
        s.faults().pause(B, 400, 700);
        for (int i = 0; i < 50; i++) {
            int p = i;
            s.at(10 + i * 20L, () -> {
                a.ctx.send(B, p);
                a.ctx.send(C, p);
            });
        }
        s.runUntil(5_000);
        List<String> out = new ArrayList<>();
        b.got.forEach(g -> out.add("b" + g[0] + ":" + g[2]));
        c.got.forEach(g -> out.add("c" + g[0] + ":" + g[2]));
        return out;
    }
}
