package org.tebaldi.server.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.cluster.Cluster;

/**
 * Runs a workload under a tree for many seeds and checks every history with the serializability checker plus the
 * workload's invariants. {@code -Dtebaldi.seed=N} runs one seed only (to reproduce a failure);
 * {@code -Dtebaldi.seeds=N} changes how many seeds run (CI default: 500).
 */
public final class SimSuite {
    /** Totals over all seeds. */
    public record Totals(int runs, long committed, long aborted, List<String> failures) {
    }

    private SimSuite() {
    }

    /** Seeds to run: the {@code tebaldi.seed} property, else 1..{@code tebaldi.seeds} (default {@code dflt}). */
    public static long[] seeds(int dflt) {
        String one = System.getProperty("tebaldi.seed");
        if (one != null) {
            return new long[]{Long.parseLong(one)};
        }
        int n = Integer.getInteger("tebaldi.seeds", dflt);
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = i + 1;
        }
        return s;
    }

    /**
     * Runs every seed; odd seeds add random node pauses to the network jitter.
     *
     * @return totals and one message per failing seed (empty when all passed)
     */
    public static Totals run(Supplier<SimWorkload> workload, CcTree tree, long[] seeds) {
        return run(workload, tree, seeds, c -> c);
    }

    /** {@link #run(Supplier, CcTree, long[])} with each run's cluster configuration adjusted by {@code configure}. */
    public static Totals run(Supplier<SimWorkload> workload, CcTree tree, long[] seeds,
                             java.util.function.UnaryOperator<org.tebaldi.server.node.ClusterConfig> configure) {
        List<String> failures = new ArrayList<>();
        long committed = 0;
        long aborted = 0;
        for (long seed : seeds) {
            SimHarness.Stats stats = new SimHarness.Stats();
            SimHarness h = new SimHarness(workload.get(), tree).model(seed % 2 == 1
                    ? SimulatedRuntime.Model.withPauses() : SimulatedRuntime.Model.jittery()).configure(configure);
            try {
                Cluster c = h.run(seed, stats);
                CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
                if (!r.serializable()) {
                    failures.add("seed=" + seed + " tree=" + tree.describe() + ": " + r.summary(5));
                }
            } catch (RuntimeException | AssertionError e) {
                failures.add("seed=" + seed + " tree=" + tree.describe() + ": " + e);
            }
            committed += stats.committed;
            aborted += stats.aborted;
        }
        return new Totals(seeds.length, committed, aborted, failures);
    }

    /** A failure message listing the failing seeds and how to rerun one. */
    public static String report(Totals t) {
        StringBuilder b = new StringBuilder(t.failures().size() + " of " + t.runs() + " seeds failed "
                + "(rerun one with -Dtebaldi.seed=N):\n");
        t.failures().stream().limit(10).forEach(f -> b.append("  ").append(f).append('\n'));
        return b.toString();
    }
}
