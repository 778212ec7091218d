package org.tebaldi.core.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.CostUnits;
import org.tebaldi.core.runtime.cost.Hardware;
import org.tebaldi.core.runtime.cost.HandlerCost;

/** Virtual CPU time of handlers on simulated machines: costs, core queueing, latency, bandwidth. */
class CoreSchedulerTest {
    /** A message of n units. */
    record Work(int n) implements CostUnits {
        @Override
        public int costUnits() {
            return n;
        }
    }

    /** Records (virtual µs at handler start, payload) and forwards to {@code next} if set. */
    static class Recorder implements Actor {
        final List<String> log = new ArrayList<>();
        final NodeId next;
        NodeContext ctx;

        Recorder(NodeId next) {
            this.next = next;
        }

        @Override
        public void onStart(NodeContext c) {
            ctx = c;
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            log.add(ctx.nowMicros() + ":" + ((Work) msg).n());
            if (next != null) {
                ctx.send(next, msg);
            }
        }
    }

    private static CostTable table(double base, double perUnit, double overhead) {
        return new CostTable("test", Map.of(), overhead, Map.of(), 0, 0, Map.of(), 1250, Map.of(),
                Map.of("ds Work", new HandlerCost(base, perUnit, 1), "tc Work", new HandlerCost(base, perUnit, 1)),
                Map.of());
    }

    private static Hardware hw(int machines, int cores, double latency, double local, CostTable t) {
        return new Hardware(machines, cores, n -> n.index() % machines, latency, latency, local, 10, t, false);
    }

    @Test
    void oneCoreRunsTwoNodesOneAfterTheOther() {
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0),
                hw(1, 1, 0, 0, table(10, 0, 1)));
        Recorder a = new Recorder(null);
        Recorder b = new Recorder(null);
        sim.spawn(NodeId.ds(0), a);
        sim.spawn(NodeId.tc(0), b);
        sim.runUntil(1);
        sim.inject(NodeId.ds(0), new Work(1));
        sim.inject(NodeId.tc(0), new Work(2));
        sim.inject(NodeId.ds(0), new Work(3));
        sim.runUntil(1_000);
        // one core: ds0 at 1, tc0 waits for it (11), ds0's second message waits for tc0 (21)
        assertEquals(List.of("1:1", "21:3"), a.log);
        assertEquals(List.of("11:2"), b.log);
        assertEquals(30_000, sim.cores().machineBusyNanos()[0]);
    }

    @Test
    void aHelperThreadsWorkTakesACoreOfItsNodesMachineButNotTheNode() {
        // one core: a 25 µs job of ds0's helper thread queued at t=1 runs first; tc0's message waits for the core
        // (26), ds0's own message too (36) — the node itself is free, the core is not. With two cores ds0's message
        // runs at once beside the job.
        for (int cores : new int[] {1, 2}) {
            SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0),
                    hw(1, cores, 0, 0, table(10, 0, 1)));
            Recorder a = new Recorder(null);
            Recorder b = new Recorder(null);
            sim.spawn(NodeId.ds(0), a);
            sim.spawn(NodeId.tc(0), b);
            sim.runUntil(1);
            long[] doneAt = {-1};
            sim.background(NodeId.ds(0), 25_000, () -> doneAt[0] = sim.nowMicros());
            sim.inject(NodeId.tc(0), new Work(1));
            sim.inject(NodeId.ds(0), new Work(2));
            sim.runUntil(1_000);
            assertEquals(26, doneAt[0]);
            if (cores == 1) {
                assertEquals(List.of("26:1"), b.log);
                assertEquals(List.of("36:2"), a.log);
            } else {
                assertEquals(List.of("1:1"), b.log);
                assertEquals(List.of("11:2"), a.log, "ds0 waits for a core, not for its helper");
            }
            assertEquals(25_000, sim.cores().backgroundBusyNanos()[0]);
            assertEquals(45_000, sim.cores().machineBusyNanos()[0]);
            assertEquals(10_000, sim.cores().busyNanos().get(NodeId.ds(0)), "the job is not the node's time");
        }
    }

    @Test
    void aHandlerCanReportWorkItsMessageDoesNotCarry() {
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0),
                hw(1, 1, 0, 0, table(10, 2, 1)));
        Recorder a = new Recorder(null) {
            @Override
            public void onMessage(NodeId from, Object msg) {
                super.onMessage(from, msg);
                org.tebaldi.core.runtime.cost.HandlerUnits.add(5);
            }
        };
        sim.spawn(NodeId.ds(0), a);
        sim.runUntil(1);
        sim.inject(NodeId.ds(0), new Work(1));
        sim.runUntil(1_000);
        assertEquals(10_000 + 2_000 * (1 + 5), sim.cores().busyNanos().get(NodeId.ds(0)));
    }

    /** A simulated runtime on one machine of one core, without latency, charging {@code handlers} (overhead 1). */
    private static SimulatedRuntime oneCore(Map<String, HandlerCost> handlers) {
        CostTable t = new CostTable("test", Map.of(), 1.0, Map.of(), 0, 0, Map.of(), 100, Map.of(), handlers, Map.of());
        return new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0), hw(1, 1, 0, 0, t));
    }

    @Test
    void aTimerTaskOfAReportedKindIsChargedUnderItsOwnKey() {
        // the role's timer costs 500 µs (periodic work), a lock wait's time-out 2 µs: a task that reports its kind
        // is charged its own key; one that does not, the role's
        SimulatedRuntime sim = oneCore(Map.of("ds timer", new HandlerCost(500, 0, 1), "ds timer/lock-timeout",
                new HandlerCost(2, 0, 1)));
        Recorder a = new Recorder(null);
        sim.spawn(NodeId.ds(0), a);
        sim.runUntil(1);
        a.ctx.schedule(10, () -> org.tebaldi.core.runtime.cost.HandlerUnits.kind("lock-timeout"));
        sim.runUntil(1_000);
        assertEquals(2_000, sim.cores().busyNanos().get(NodeId.ds(0)));
        a.ctx.schedule(10, () -> { });
        sim.runUntil(2_000);
        assertEquals(2_000 + 500_000, sim.cores().busyNanos().get(NodeId.ds(0)));
        sim.send(NodeId.tc(0), NodeId.ds(0), new Work(3));
        sim.runUntil(3_000);
        // where the node's time went: each charge under the key it was charged by, summing to the node's busy time
        Map<String, Long> byKey = sim.cores().busyByKey(NodeId.ds(0));
        assertEquals(java.util.Set.of("ds timer", "ds timer/lock-timeout", "ds Work"), byKey.keySet());
        assertEquals(500_000L, byKey.get("ds timer"));
        assertEquals(2_000L, byKey.get("ds timer/lock-timeout"));
        assertEquals(sim.cores().busyNanos().get(NodeId.ds(0)), byKey.values().stream().mapToLong(Long::longValue)
                .sum());
    }

    /**
     * On a one-core cluster with {@code handlers}: ds0's timer tasks, each reporting {@code kinds[i]} and {@code
     * units[i]}, one after the other; returns ds0's busy time after each, ns.
     */
    private static long[] timerTasks(Map<String, HandlerCost> handlers, String[] kinds, int[] units) {
        SimulatedRuntime sim = oneCore(handlers);
        Recorder a = new Recorder(null);
        sim.spawn(NodeId.ds(0), a);
        sim.runUntil(1);
        long[] busy = new long[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            String kind = kinds[i];
            int u = units[i];
            a.ctx.schedule(10, () -> {
                org.tebaldi.core.runtime.cost.HandlerUnits.kind(kind);
                org.tebaldi.core.runtime.cost.HandlerUnits.add(u);
            });
            sim.runUntil(1_000L * (i + 1));
            busy[i] = sim.cores().busyNanos().get(NodeId.ds(0));
        }
        return busy;
    }

    @Test
    void aTimerTaskIsChargedForTheWorkUnitsItReports() {
        // version collection's tick costs 10 µs + 0.5 µs per chain it looks at: a tick over 40 chains 30 µs, one over
        // none 10 µs (before timers could report units, both were charged the base alone)
        long[] busy = timerTasks(Map.of("ds timer", new HandlerCost(500, 0, 1), "ds timer/version-gc",
                new HandlerCost(10, 0.5, 0)), new String[] {"version-gc", "version-gc"}, new int[] {40, 0});
        assertArrayEquals(new long[] {30_000, 30_000 + 10_000}, busy);
    }

    @Test
    void aVersionCollectionTimerATableLacksIsChargedAsTheRolesTimerOtherKindsTheRolesMean() {
        // a table calibrated before version collection reported its kind: its ticks cost what the role's timer key
        // charged them before (500 µs), while another kind the table lacks costs the role's mean ((500 + 3) / 2)
        long[] busy = timerTasks(Map.of("ds timer", new HandlerCost(500, 0, 1), "ds Work", new HandlerCost(3, 0, 1)),
                new String[] {org.tebaldi.core.runtime.cost.HandlerUnits.VERSION_GC, "lock-timeout"}, new int[] {40, 0});
        assertArrayEquals(new long[] {500_000, 500_000 + 251_500}, busy);
    }

    /** Handles a {@code Work(1)} as kind {@code read-marks} with {@code units} more work units; other work plainly. */
    private static Actor readMarks(int units) {
        return new Actor() {
            @Override
            public void onStart(NodeContext c) {
            }

            @Override
            public void onMessage(NodeId from, Object msg) {
                if (((Work) msg).n() == 1) {
                    org.tebaldi.core.runtime.cost.HandlerUnits.kind("read-marks");
                    org.tebaldi.core.runtime.cost.HandlerUnits.add(units);
                }
            }
        };
    }

    @Test
    void aMessageHandlerOfAReportedKindIsChargedUnderItsOwnKeyWithItsUnits() {
        // a Work message costs 300 µs (say, collecting old versions); one whose handler reports the kind "read-marks"
        // is charged that key: 1 µs + 0.5 µs per unit it reported
        SimulatedRuntime sim = oneCore(Map.of("ds Work", new HandlerCost(300, 0, 1), "ds Work/read-marks",
                new HandlerCost(1, 0.5, 1)));
        sim.spawn(NodeId.ds(0), readMarks(10));
        sim.runUntil(1);
        sim.send(NodeId.tc(0), NodeId.ds(0), new Work(1));
        sim.runUntil(1_000);
        assertEquals(1_000 + 500 * 11, sim.cores().busyNanos().get(NodeId.ds(0)), "1 µs + 0.5 µs x (1 + 10 units)");
        sim.send(NodeId.tc(0), NodeId.ds(0), new Work(0));
        sim.runUntil(2_000);
        assertEquals(Map.of("ds Work/read-marks", 6_500L, "ds Work", 300_000L), sim.cores().busyByKey(NodeId.ds(0)));
    }

    @Test
    void aMessageKindATableLacksIsChargedAsTheMessage() {
        // a table calibrated before the handlers were split by kind keeps charging them as it did
        SimulatedRuntime sim = oneCore(Map.of("ds Work", new HandlerCost(300, 0, 1), "ds timer",
                new HandlerCost(700, 0, 1)));
        sim.spawn(NodeId.ds(0), readMarks(0));
        sim.runUntil(1);
        sim.send(NodeId.tc(0), NodeId.ds(0), new Work(1));
        sim.runUntil(1_000);
        assertEquals(300_000, sim.cores().busyNanos().get(NodeId.ds(0)));
        assertEquals(Map.of("ds Work/read-marks", 300_000L), sim.cores().busyByKey(NodeId.ds(0)));
    }

    @Test
    void twoCoresRunTwoNodesAtOnceButOneNodeOneMessageAtATime() {
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0),
                hw(1, 2, 0, 0, table(10, 0, 1)));
        Recorder a = new Recorder(null);
        Recorder b = new Recorder(null);
        sim.spawn(NodeId.ds(0), a);
        sim.spawn(NodeId.tc(0), b);
        sim.runUntil(1);
        sim.inject(NodeId.ds(0), new Work(1));
        sim.inject(NodeId.ds(0), new Work(2));
        sim.inject(NodeId.tc(0), new Work(3));
        sim.runUntil(1_000);
        assertEquals(List.of("1:1", "11:2"), a.log);
        assertEquals(List.of("1:3"), b.log);
    }

    @Test
    void sendsLeaveWhenTheHandlerEndsAndCrossTheNetwork() {
        // ds0 on machine 0, tc1 on machine 1: cost (5 + 2 x units) x 1.25 overhead; latency 50 µs; 1,250 bytes at
        // 10 Gbit/s = 1 µs on the wire
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0),
                hw(2, 1, 50, 0, table(6, 2, 1.25)));
        Recorder b = new Recorder(null);
        Recorder a = new Recorder(NodeId.tc(1));
        sim.spawn(NodeId.tc(1), b);
        sim.spawn(NodeId.ds(0), a);
        sim.runUntil(1);
        sim.inject(NodeId.ds(0), new Work(4));
        sim.runUntil(1_000);
        assertEquals(List.of("1:4"), a.log);
        // starts at 1, costs (6 + 8) x 1.25 = 17.5 -> leaves at 18.5, 1 µs on the wire, 50 µs latency -> 69.5
        assertEquals(List.of("69:4"), b.log);
        assertEquals(17_500, sim.cores().busyNanos().get(NodeId.ds(0)));
    }

    @Test
    void aRunTakesWhatWaitsAtItsStartAndOnlyItsFirstHandlerIsCold() {
        // one core, cost 2 µs + 3 µs when cold, + 0.5 µs to wake an idle core. Three messages reach ds0 at t=1, one
        // after the other: the first starts a run alone on the idle core (cold, woken: 5.5 µs); the other two wait
        // and form the next run on the same core: cold (5 µs), then warm (2 µs). A fourth message at t=100 finds
        // the core idle again: 5.5 µs.
        CostTable t = new CostTable("test", Map.of(), 1.0, Map.of(), 0.5, 0, Map.of(), 100, Map.of(),
                Map.of("ds Work", new HandlerCost(2, 0, 3, 1)), Map.of());
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0), hw(1, 1, 0, 0, t));
        Recorder a = new Recorder(null);
        sim.spawn(NodeId.ds(0), a);
        sim.runUntil(1);
        sim.inject(NodeId.ds(0), new Work(1));
        sim.inject(NodeId.ds(0), new Work(2));
        sim.inject(NodeId.ds(0), new Work(3));
        sim.runUntil(100);
        sim.inject(NodeId.ds(0), new Work(4));
        sim.runUntil(1_000);
        assertEquals(List.of("1:1", "6:2", "11:3", "100:4"), a.log);
        assertEquals(5_500 + 5_000 + 2_000 + 5_500, sim.cores().busyNanos().get(NodeId.ds(0)));
    }

    @Test
    void measuredModeChargesTheHandlersOwnTimeTimesTheOverhead() {
        final class Busy extends Recorder {
            Busy() {
                super(null);
            }

            @Override
            public void onMessage(NodeId from, Object msg) {
                long until = System.nanoTime() + 200_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                super.onMessage(from, msg);
            }
        }
        CostTable t = table(1, 0, 2.0);
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0),
                new Hardware(1, 1, n -> 0, 0, 0, 0, 10, t, true));
        sim.spawn(NodeId.ds(0), new Busy());
        sim.inject(NodeId.ds(0), new Work(1));
        sim.runUntil(10_000);
        assertTrue(sim.cores().busyNanos().get(NodeId.ds(0)) >= 2 * 200_000, "at least 200 µs measured x 2");
    }

    @Test
    void messagesBetweenGroupsTakeTheGroupLatencyMore() {
        // machines 0 and 2 share group 0, machine 1 is group 1: 20 µs between machines, 1,000 µs more between
        // groups; handlers cost 10 µs, messages are small (wire time under 1 µs)
        CostTable t = table(10, 0, 1);
        Hardware h = new Hardware(3, 1, n -> n.index() % 3, 20, 20, 0, 10, t, false, 2, 1_000, 1_000, 0);
        SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0), h);
        Recorder near = new Recorder(null);
        Recorder far = new Recorder(null);
        sim.spawn(NodeId.ds(0), new Recorder(NodeId.ds(2)));
        sim.spawn(NodeId.ds(2), near);
        sim.spawn(NodeId.tc(0), new Recorder(NodeId.ds(1)));
        sim.spawn(NodeId.ds(1), far);
        sim.runUntil(1);
        sim.inject(NodeId.ds(0), new Work(1));
        sim.inject(NodeId.tc(0), new Work(2));
        sim.runUntil(10_000);
        long nearAt = Long.parseLong(near.log.get(0).split(":")[0]);
        long farAt = Long.parseLong(far.log.get(0).split(":")[0]);
        assertTrue(nearAt >= 1 + 10 + 20 && nearAt < 1 + 10 + 20 + 20, "same group: " + nearAt);
        assertTrue(farAt >= 1 + 20 + 20 + 1_000 && farAt < 1 + 20 + 20 + 1_000 + 20, "other group: " + farAt);
        assertThrows(IllegalArgumentException.class,
                () -> new Hardware(3, 1, n -> 0, 20, 20, 0, 10, t, false, 0, 0, 0, 0));
    }

    @Test
    void theTimestampServiceIsChargedAtLeastItsFloor() {
        CostTable t = new CostTable("test", Map.of(), 1.0, Map.of(), 0, 0, Map.of(), 100, Map.of(),
                Map.of("ts Work", new HandlerCost(1, 0, 1), "ds Work", new HandlerCost(1, 0, 1)), Map.of());
        for (double floor : new double[] {0, 50}) {
            Hardware h = new Hardware(1, 1, n -> 0, 0, 0, 0, 10, t, false, 1, 0, 0, floor);
            SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(0, 0, 0, 0), h);
            sim.spawn(new NodeId(Role.TS, 0), new Recorder(null));
            sim.spawn(NodeId.ds(0), new Recorder(null));
            sim.runUntil(1);
            sim.inject(new NodeId(Role.TS, 0), new Work(1));
            sim.inject(NodeId.ds(0), new Work(2));
            sim.runUntil(1_000);
            assertEquals(floor == 0 ? 1_000 : 50_000, sim.cores().busyNanos().get(new NodeId(Role.TS, 0)));
            assertEquals(1_000, sim.cores().busyNanos().get(NodeId.ds(0)), "other roles keep their cost");
        }
    }

    @Test
    void sameSeedSameTimes() {
        assertEquals(run(7), run(7));
    }

    private static List<String> run(long seed) {
        SimulatedRuntime sim = new SimulatedRuntime(seed, new SimulatedRuntime.Model(0, 0, 0, 0),
                new Hardware(2, 1, n -> n.index() % 2, 20, 300, 5, 10, table(3, 1, 1.5), false));
        Recorder a = new Recorder(NodeId.tc(1));
        Recorder b = new Recorder(NodeId.ds(0));
        sim.spawn(NodeId.ds(0), a);
        sim.spawn(NodeId.tc(1), b);
        sim.inject(NodeId.ds(0), new Work(1));
        sim.runUntil(20_000);
        List<String> all = new ArrayList<>(a.log);
        all.addAll(b.log);
        return all;
    }

    @Test
    void pausesAndHardwareDoNotMix() {
        assertThrows(IllegalArgumentException.class, () -> new SimulatedRuntime(1,
                SimulatedRuntime.Model.withPauses(), hw(1, 1, 0, 0, table(1, 0, 1))));
    }
}
