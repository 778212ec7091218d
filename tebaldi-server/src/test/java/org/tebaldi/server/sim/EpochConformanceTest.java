package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.epoch.EpochService;
import org.tebaldi.server.node.CommitProtocol;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * Conformance under epoch-based commit ({@code cluster.commit: epoch}): random trees of depth up to 3 over every
 * registered mechanism ({@link RandomTrees}) and every mechanism as a flat leaf, on the mix, bank (interactive and
 * stored procedures) and list-append workloads, each seed with epochs of 1–3 ms (virtual). Each run: serializable
 * history, the workload's invariants and liveness ({@link SimHarness}), no partial epoch ({@link EpochCheck}), and
 * the transactions really went through epochs (committed epochs at every coordinator, none left held). {@code
 * tebaldi.epochTrees} (default 40) random trees × {@code tebaldi.treeSeeds} (default 3) seeds.
 */
class EpochConformanceTest {
    private static final int TREES = Integer.getInteger("tebaldi.epochTrees", 40);
    private static final int TREE_SEEDS = Integer.getInteger("tebaldi.treeSeeds", 3);

    private static final List<Supplier<SimWorkload>> WORKLOADS = List.of(() -> new MixWorkload(5),
            () -> new BankWorkload(6), () -> new BankWorkload(6, true), () -> new ListAppendWorkload(5));

    private static String run(Supplier<SimWorkload> w, CcTree tree, long seed) {
        long epoch = 1_000 + (seed % 3) * 1_000;
        SimHarness h = new SimHarness(w.get(), tree).model(seed % 2 == 1
                ? SimulatedRuntime.Model.withPauses() : SimulatedRuntime.Model.jittery())
                .configure(c -> c.withCommit(CommitProtocol.EPOCH, epoch));
        try {
            Cluster c = h.run(seed, new SimHarness.Stats());
            CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
            if (!r.serializable()) {
                return "seed=" + seed + " tree=" + tree.describe() + ": " + r.summary(5);
            }
            EpochService s = (EpochService) c.service(Role.EPOCH);
            EpochCheck.noPartialEpoch(c, List.of(s.decisions()));
            for (TransactionCoordinator tc : c.coordinators()) {
                if (tc.epochStats()[0] == 0) {
                    return "seed=" + seed + " tree=" + tree.describe() + ": a coordinator committed no epoch";
                }
            }
            return null;
        } catch (RuntimeException | AssertionError e) {
            return "seed=" + seed + " tree=" + tree.describe() + ": " + e;
        }
    }

    private static long[] seeds(long first, int n) {
        String one = System.getProperty("tebaldi.seed");
        if (one != null) {
            return new long[] {Long.parseLong(one)};
        }
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = first + i;
        }
        return s;
    }

    @Test
    void everyMechanismFlatUnderEpochCommit() {
        List<String> failures = new ArrayList<>();
        for (String m : List.of("2pl", "rp", "ssi", "tso")) {
            CcTree tree = CcTree.build(TreeSpec.leaf(m, "rw1", "rw2", "ro"), m);
            for (long seed : seeds(m.hashCode() & 0xfff, 10)) {
                String f = run(() -> new MixWorkload(5), tree, seed);
                if (f != null) {
                    failures.add(f);
                }
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " runs failed:\n  " + String.join("\n  ", failures));
    }

    @Test
    void randomTreesOfDepthUpToThreeUnderEpochCommit() {
        List<String> failures = new ArrayList<>();
        int runs = 0;
        for (int i = 1; i <= TREES; i++) {
            Supplier<SimWorkload> w = WORKLOADS.get(i % WORKLOADS.size());
            TreeSpec spec = new RandomTrees(w.get().database(), 7_000 + i, 3).next();
            CcTree tree = CcTree.build(spec, "random#" + i);
            for (long seed : seeds(i * 1000L + 17, TREE_SEEDS)) {
                runs++;
                String f = run(w, tree, seed);
                if (f != null) {
                    failures.add("tree #" + i + " " + f);
                }
            }
        }
        int total = runs;
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + total + " runs failed:\n  "
                + String.join("\n  ", failures.subList(0, Math.min(10, failures.size()))));
    }
}
