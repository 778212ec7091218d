package org.tebaldi.bench.burn;

import java.util.List;
import java.util.function.LongConsumer;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.durability.MemoryLogStore;

/**
 * Applies a scenario's faults (one case per {@link FaultKind}): the network-model kinds shape the runtime's
 * {@link SimulatedRuntime.Model}; timed kinds are scheduled on the runtime of the cluster lifetime they hit. A cluster
 * crash is not scheduled here: it ends a lifetime, so {@link BurnRun} runs up to it and recovers. The timed kinds
 * ({@link #scheduleTimed}) use the runtime's and the cluster's fault primitives (docs/simulation.md "Faults").
 */
final class FaultInjector {
    /** Mean time between node pauses of {@link FaultKind#NODE_PAUSES}, µs. */
    static final long PAUSE_INTERVAL_MICROS = 5_000;

    private FaultInjector() {
    }

    /** The network and pause model of the whole run: 20–300 µs delays and no pauses unless faults say otherwise. */
    static SimulatedRuntime.Model model(Scenario s) {
        SimulatedRuntime.Model base = SimulatedRuntime.Model.jittery();
        long maxDelay = base.maxDelayMicros();
        long interval = 0;
        long maxPause = 0;
        for (Fault f : s.faults()) {
            switch (f.kind()) {
                case NET_JITTER -> maxDelay = Math.max(maxDelay, f.parameter());
                case NODE_PAUSES -> {
                    interval = PAUSE_INTERVAL_MICROS;
                    maxPause = Math.max(maxPause, f.parameter());
                }
                default -> {
                }
            }
        }
        return new SimulatedRuntime.Model(base.minDelayMicros(), maxDelay, interval, maxPause);
    }

    /**
     * Schedules the timed faults of {@code lifetime} (reconfigurations: each swap asked at its time, one after the
     * other as the server queues them).
     *
     * @param trees    the reconfiguration targets, parsed, in the order of {@code faults}
     * @param swapDone called with the virtual time (µs) each swap completed
     */
    static void schedule(Lifetime lifetime, List<Fault> faults, List<CcTree> trees, LongConsumer swapDone) {
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i);
            CcTree tree = trees.get(i);
            switch (f.kind()) {
                case RECONFIG -> lifetime.sim.at(f.atMicros(), () -> (f.parameter() == 1
                        ? lifetime.reconfig.onlineUpdate(tree, f.durationMicros())
                        : lifetime.reconfig.partialRestart(tree, f.durationMicros()))
                        .thenRun(() -> swapDone.accept(lifetime.sim.nowMicros())));
                default -> throw new IllegalStateException("not a reconfiguration: " + f.kind());
            }
        }
    }

    /**
     * Applies the timed faults ({@link FaultKind#timed()}) of the scenario to the first cluster lifetime: the
     * runtime's fault windows are set now, crashes and skews are scheduled at their times.
     *
     * @param stores the data servers' logs (a data-server restart crashes its log: a random prefix of the unsynced
     *               writes survives, drawn from {@code r})
     */
    static void scheduleTimed(Lifetime e, Scenario s, org.tebaldi.server.durability.MemoryLogStore[] stores,
                              java.util.Random r) {
        SimulatedRuntime sim = e.sim;
        for (Fault f : s.faults()) {
            long at = f.atMicros();
            long until = f.endMicros();
            List<String> t = f.targets();
            switch (f.kind()) {
                case DELAY_SPIKE -> sim.faults().delaySpike(t.isEmpty() ? null : Targets.parseOrAny(t.get(0)),
                        t.size() < 2 ? null : Targets.parseOrAny(t.get(1)), at, until, f.parameter());
                case LINK_DROP -> sim.faults().dropLink(Targets.parse(t.get(0)), Targets.parse(t.get(1)), at, until);
                case CLOCK_SKEW -> sim.at(at, () -> sim.faults().clockSkew(Targets.parse(t.get(0)), f.parameter(),
                        f.driftPpm()));
                case NODE_PAUSE -> sim.faults().pause(Targets.parse(t.get(0)), at, until);
                case COORDINATOR_CRASH -> sim.at(at, () -> e.cluster.crashCoordinator(
                        Targets.parse(t.get(0)).index(), f.durationMicros()));
                case SERVICE_LOSS -> sim.at(at, () -> e.cluster.failService(Targets.parse(t.get(0)).role(),
                        f.durationMicros(), f.parameter()));
                case DS_RESTART -> {
                    int ds = Targets.parse(t.get(0)).index();
                    boolean keepAll = r.nextInt(3) == 0;
                    sim.at(at, () -> {
                        if (e.cluster.promotable(ds) >= 0) { // replication on: its backup takes over
                            e.cluster.failoverDataServer(ds, f.durationMicros(), f.parameter());
                            // from the take-over on, the partition's store is the promoted replica (a later crash
                            // of the whole cluster restarts from it)
                            sim.at(sim.nowMicros() + Math.max(f.durationMicros(), f.parameter()) + 1, () -> {
                                if (e.cluster.dataServers().get(ds).logStore() instanceof MemoryLogStore m) {
                                    stores[ds] = m;
                                }
                            });
                        } else {
                            e.cluster.restartDataServer(ds, f.durationMicros(), f.parameter(),
                                    () -> stores[ds].crash(r, keepAll));
                        }
                    });
                }
                default -> {
                }
            }
        }
    }
}
