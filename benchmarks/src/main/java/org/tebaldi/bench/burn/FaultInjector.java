package org.tebaldi.bench.burn;

import java.util.List;
import java.util.function.LongConsumer;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;

/**
 * Applies a scenario's faults (one case per {@link FaultKind}): the network-model kinds shape the runtime's
 * {@link SimulatedRuntime.Model}; timed kinds are scheduled on the runtime of the cluster lifetime they hit. A cluster
 * crash is not scheduled here: it ends a lifetime, so {@link BurnRun} runs up to it and recovers.
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
                case CLUSTER_CRASH, RECONFIG -> {
                }
                default -> throw new IllegalStateException("unhandled kind " + f.kind());
            }
        }
        return new SimulatedRuntime.Model(base.minDelayMicros(), maxDelay, interval, maxPause);
    }

    /**
     * Schedules the timed faults of {@code epoch} (reconfigurations: each swap asked at its time, one after the
     * other as the server queues them).
     *
     * @param trees    the reconfiguration targets, parsed, in the order of {@code faults}
     * @param swapDone called with the virtual time (µs) each swap completed
     */
    static void schedule(Epoch epoch, List<Fault> faults, List<CcTree> trees, LongConsumer swapDone) {
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i);
            CcTree tree = trees.get(i);
            switch (f.kind()) {
                case RECONFIG -> epoch.sim.at(f.atMicros(), () -> (f.parameter() == 1
                        ? epoch.reconfig.onlineUpdate(tree, f.durationMicros())
                        : epoch.reconfig.partialRestart(tree, f.durationMicros()))
                        .thenRun(() -> swapDone.accept(epoch.sim.nowMicros())));
                case NET_JITTER, NODE_PAUSES, CLUSTER_CRASH -> {
                }
                default -> throw new IllegalStateException("unhandled kind " + f.kind());
            }
        }
    }
}
