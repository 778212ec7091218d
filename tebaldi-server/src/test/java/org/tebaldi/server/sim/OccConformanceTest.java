package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * Silo-style OCC ({@code occ}) as a leaf alone, under every parent the composability rules allow (2PL in each
 * deadlock flavour, SSI under its root optimization and batching), deeper in the tree, and in random trees that
 * contain it; on bank transfers (interactive and stored procedures), the random mix and list-append. Every history
 * is checked (no cycle, no aborted or intermediate read), the workloads' invariants and liveness too, and each
 * key's OCC-committed versions carry increasing TIDs along the version order (Silo's rule (a)). CI runs
 * {@code tebaldi.occSeeds} (default 60) seeds per tree and {@code tebaldi.occTrees} (default 20) random trees ×
 * {@code tebaldi.occTreeSeeds} (default 5) seeds; the long run in docs/reliability.md raises them.
 */
class OccConformanceTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.occSeeds", 60);
    private static final int TREES = Integer.getInteger("tebaldi.occTrees", 20);
    private static final int TREE_SEEDS = Integer.getInteger("tebaldi.occTreeSeeds", 5);

    static Stream<Arguments> cases() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> procBank = () -> new BankWorkload(6, true);
        Supplier<SimWorkload> mix = () -> new MixWorkload(5);
        Supplier<SimWorkload> la = () -> new ListAppendWorkload(5);
        return Stream.of(
                Arguments.of("bank", bank, TreeSpec.leaf("occ", "transfer", "audit")),
                Arguments.of("bank-procedures", procBank, TreeSpec.leaf("occ", "transfer", "audit")),
                Arguments.of("mix", mix, TreeSpec.leaf("occ", "rw1", "rw2", "ro")),
                Arguments.of("list-append", la, TreeSpec.leaf("occ", "t_a", "t_b", "t_c", "t_ro")),
                Arguments.of("mix", mix, TreeSpec.inner("2pl", TreeSpec.leaf("occ", "rw1"),
                        TreeSpec.leaf("2pl", "rw2", "ro"))),
                Arguments.of("mix", mix, TreeSpec.inner("2pl", TreeSpec.leaf("occ", "rw1", "rw2"),
                        TreeSpec.leaf("none", "ro")).option("deadlock", "no-wait")),
                Arguments.of("list-append", la, TreeSpec.inner("2pl", TreeSpec.leaf("occ", "t_a", "t_b"),
                        TreeSpec.leaf("2pl", "t_c", "t_ro"))),
                Arguments.of("list-append", la, TreeSpec.inner("2pl", TreeSpec.leaf("occ", "t_a", "t_b"),
                        TreeSpec.leaf("occ", "t_c", "t_ro")).option("deadlock", "wait-die")),
                Arguments.of("bank-procedures", procBank, TreeSpec.inner("ssi", TreeSpec.leaf("occ", "transfer"),
                        TreeSpec.leaf("none", "audit"))),
                Arguments.of("mix", mix, TreeSpec.inner("ssi", TreeSpec.leaf("occ", "rw1", "rw2"),
                        TreeSpec.leaf("none", "ro"))),
                Arguments.of("list-append", la, TreeSpec.inner("ssi", TreeSpec.leaf("occ", "t_a", "t_b", "t_c"),
                        TreeSpec.leaf("none", "t_ro"))),
                Arguments.of("mix", mix, TreeSpec.inner("ssi", TreeSpec.leaf("occ", "rw1"), TreeSpec.leaf("2pl", "rw2"),
                        TreeSpec.leaf("none", "ro")).option("batchInterval", "1ms")),
                Arguments.of("mix", mix, TreeSpec.inner("ssi", TreeSpec.leaf("occ", "rw1"),
                        TreeSpec.leaf("2pl", "rw2", "ro"))),
                Arguments.of("list-append", la, TreeSpec.inner("ssi", TreeSpec.leaf("occ", "t_a", "t_b"),
                        TreeSpec.leaf("2pl", "t_c", "t_ro")).option("batchInterval", "1ms")),
                Arguments.of("list-append", la, TreeSpec.inner("ssi", TreeSpec.inner("2pl",
                        TreeSpec.leaf("occ", "t_a"), TreeSpec.leaf("rp", "t_b", "t_c")),
                        TreeSpec.leaf("none", "t_ro"))),
                Arguments.of("list-append", la, TreeSpec.inner("2pl", TreeSpec.inner("ssi",
                        TreeSpec.leaf("occ", "t_a"), TreeSpec.leaf("occ", "t_b")).option("batchInterval", "1ms"),
                        TreeSpec.leaf("2pl", "t_c", "t_ro"))));
    }

    @ParameterizedTest(name = "{0} under {2}")
    @MethodSource("cases")
    void serializableOverManySeeds(String name, Supplier<SimWorkload> workload, TreeSpec spec) {
        CcTree tree = CcTree.build(spec, name);
        List<String> failures = new ArrayList<>();
        long[] committed = new long[2];
        for (int seed = 1; seed <= SEEDS; seed++) {
            run(workload, tree, seed, failures, committed);
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + SEEDS + " seeds failed:\n  "
                + String.join("\n  ", failures.subList(0, Math.min(10, failures.size()))));
        assertTrue(committed[0] > 0);
        System.out.printf("%s under %s: %d seeds, %d committed, %d aborted attempts%n", name, tree.describe(), SEEDS,
                committed[0], committed[1]);
    }

    /** Random trees of depth up to 3 over every mechanism the rules cover, kept when they contain an occ leaf. */
    @Test
    void randomTreesWithOcc() {
        List<Supplier<SimWorkload>> workloads = List.of(() -> new MixWorkload(5), () -> new BankWorkload(6),
                () -> new BankWorkload(6, true), () -> new ListAppendWorkload(5));
        List<String> failures = new ArrayList<>();
        long[] committed = new long[2];
        int trees = 0;
        for (long draw = 1; trees < TREES; draw++) {
            Supplier<SimWorkload> w = workloads.get((int) (draw % workloads.size()));
            TreeSpec spec = new RandomTrees(w.get().database(), 7_000_000 + draw, 3).next();
            CcTree tree = CcTree.build(spec, "random#" + draw);
            if (tree.nodes().stream().noneMatch(n -> n.mechanism().equals("occ"))) {
                continue;
            }
            trees++;
            for (int s = 0; s < TREE_SEEDS; s++) {
                run(w, tree, draw * 1000 + s, failures, committed);
            }
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " runs failed:\n  "
                + String.join("\n  ", failures.subList(0, Math.min(10, failures.size()))));
        System.out.printf("random trees with occ: %d trees x %d seeds, %d committed, %d aborted attempts%n", TREES,
                TREE_SEEDS, committed[0], committed[1]);
    }

    /** One seed as {@link SimSuite#run} runs it, plus the TID order check; a failure is added to {@code failures}. */
    private static void run(Supplier<SimWorkload> workload, CcTree tree, long seed, List<String> failures,
                            long[] committed) {
        SimHarness.Stats stats = new SimHarness.Stats();
        SimHarness h = new SimHarness(workload.get(), tree).model(seed % 2 == 1
                ? SimulatedRuntime.Model.withPauses() : SimulatedRuntime.Model.jittery());
        try {
            Cluster c = h.run(seed, stats);
            CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
            if (!r.serializable()) {
                failures.add("seed=" + seed + " tree=" + tree.describe() + ": " + r.summary(5));
            }
            String tids = tidOrder(tree, c);
            if (tids != null) {
                failures.add("seed=" + seed + " tree=" + tree.describe() + ": " + tids);
            }
        } catch (RuntimeException | AssertionError e) {
            failures.add("seed=" + seed + " tree=" + tree.describe() + ": " + e);
        }
        committed[0] += stats.committed;
        committed[1] += stats.aborted;
    }

    /** Null if every occ leaf's committed versions of each key have strictly increasing TIDs, else the first breach. */
    private static String tidOrder(CcTree tree, Cluster c) {
        for (CcNode n : tree.nodes()) {
            if (!n.mechanism().equals("occ")) {
                continue;
            }
            for (DataServer d : c.dataServers()) {
                String[] bad = {null};
                d.store().forEach((key, chain) -> {
                    long last = 0;
                    for (Version v : chain.versions()) {
                        if (bad[0] == null && v.committed() && v.writerLeaf() == n.id()) {
                            long tid = v.stamp(n.id());
                            if (tid <= last) {
                                bad[0] = "TID " + tid + " of " + key + " by " + v.writer() + " follows TID " + last;
                            }
                            last = tid;
                        }
                    }
                });
                if (bad[0] != null) {
                    return bad[0];
                }
            }
        }
        return null;
    }
}
