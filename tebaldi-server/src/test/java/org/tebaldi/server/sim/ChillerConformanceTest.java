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
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Partitioner;

/**
 * Chiller's two-region execution ({@code chiller}) as a leaf alone, under the parents the composability rules allow
 * (2PL in each deadlock flavour, SSI under its root optimization and batching), and in random trees that contain
 * it; on bank transfers (interactive and stored procedures), the random mix and list-append, with a placement whose
 * lookup table marks about half the keys hot (so inner regions, early release and reads of released versions
 * happen all the time). Every history is checked (no cycle, no aborted or intermediate read), the workloads'
 * invariants and liveness too. CI runs {@code tebaldi.chillerSeeds} (default 60) seeds per tree and
 * {@code tebaldi.chillerTrees} (default 20) random trees × {@code tebaldi.chillerTreeSeeds} (default 5) seeds.
 */
class ChillerConformanceTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.chillerSeeds", 60);
    private static final int TREES = Integer.getInteger("tebaldi.chillerTrees", 20);
    private static final int TREE_SEEDS = Integer.getInteger("tebaldi.chillerTreeSeeds", 5);

    /** The default partitioner with every key whose hash is even in the hot lookup table, hosted by hash. */
    static ClusterConfig halfHot(ClusterConfig c) {
        Partitioner base = c.partitioner();
        int n = c.dataServers();
        return c.withPartitioner(new Partitioner() {
            @Override
            public int partition(Key key) {
                return hot(key) ? Math.floorMod(key.hashCode() >> 1, n) : base.partition(key);
            }

            @Override
            public boolean hot(Key key) {
                return (key.hashCode() & 1) == 0;
            }
        });
    }

    static Stream<Arguments> cases() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> procBank = () -> new BankWorkload(6, true);
        Supplier<SimWorkload> mix = () -> new MixWorkload(5);
        Supplier<SimWorkload> la = () -> new ListAppendWorkload(5);
        return Stream.of(
                Arguments.of("bank", bank, TreeSpec.leaf("chiller", "transfer", "audit")),
                Arguments.of("bank-procedures", procBank, TreeSpec.leaf("chiller", "transfer", "audit")),
                Arguments.of("mix", mix, TreeSpec.leaf("chiller", "rw1", "rw2", "ro")),
                Arguments.of("list-append", la, TreeSpec.leaf("chiller", "t_a", "t_b", "t_c", "t_ro")),
                Arguments.of("mix", mix, TreeSpec.inner("2pl", TreeSpec.leaf("chiller", "rw1"),
                        TreeSpec.leaf("2pl", "rw2", "ro"))),
                Arguments.of("mix", mix, TreeSpec.inner("2pl", TreeSpec.leaf("chiller", "rw1", "rw2"),
                        TreeSpec.leaf("none", "ro")).option("deadlock", "no-wait")),
                Arguments.of("list-append", la, TreeSpec.inner("2pl", TreeSpec.leaf("chiller", "t_a", "t_b"),
                        TreeSpec.leaf("chiller", "t_c", "t_ro")).option("deadlock", "wait-die")),
                Arguments.of("bank-procedures", procBank, TreeSpec.inner("ssi", TreeSpec.leaf("chiller", "transfer"),
                        TreeSpec.leaf("none", "audit"))),
                Arguments.of("list-append", la, TreeSpec.inner("ssi", TreeSpec.leaf("chiller", "t_a", "t_b", "t_c"),
                        TreeSpec.leaf("none", "t_ro"))),
                Arguments.of("mix", mix, TreeSpec.inner("ssi", TreeSpec.leaf("chiller", "rw1"),
                        TreeSpec.leaf("2pl", "rw2"), TreeSpec.leaf("none", "ro")).option("batchInterval", "1ms")),
                Arguments.of("list-append", la, TreeSpec.inner("ssi", TreeSpec.inner("2pl",
                        TreeSpec.leaf("chiller", "t_a"), TreeSpec.leaf("rp", "t_b", "t_c")),
                        TreeSpec.leaf("none", "t_ro"))));
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

    /** Random trees of depth up to 3 over every mechanism the rules cover, kept when they contain a chiller leaf. */
    @Test
    void randomTreesWithChiller() {
        List<Supplier<SimWorkload>> workloads = List.of(() -> new MixWorkload(5), () -> new BankWorkload(6),
                () -> new BankWorkload(6, true), () -> new ListAppendWorkload(5));
        List<String> failures = new ArrayList<>();
        long[] committed = new long[2];
        int trees = 0;
        for (long draw = 1; trees < TREES; draw++) {
            Supplier<SimWorkload> w = workloads.get((int) (draw % workloads.size()));
            TreeSpec spec = new RandomTrees(w.get().database(), 9_000_000 + draw, 3).next();
            CcTree tree = CcTree.build(spec, "random#" + draw);
            if (tree.nodes().stream().noneMatch(n -> n.mechanism().equals("chiller"))) {
                continue;
            }
            trees++;
            for (int s = 0; s < TREE_SEEDS; s++) {
                run(w, tree, draw * 1000 + s, failures, committed);
            }
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " runs failed:\n  "
                + String.join("\n  ", failures.subList(0, Math.min(10, failures.size()))));
        System.out.printf("random trees with chiller: %d trees x %d seeds, %d committed, %d aborted attempts%n",
                TREES, TREE_SEEDS, committed[0], committed[1]);
    }

    /** One seed as {@link SimSuite#run} runs it, with half the keys hot; a failure is added to {@code failures}. */
    private static void run(Supplier<SimWorkload> workload, CcTree tree, long seed, List<String> failures,
                            long[] committed) {
        SimHarness.Stats stats = new SimHarness.Stats();
        SimHarness h = new SimHarness(workload.get(), tree).configure(ChillerConformanceTest::halfHot)
                .model(seed % 2 == 1 ? SimulatedRuntime.Model.withPauses() : SimulatedRuntime.Model.jittery());
        try {
            Cluster c = h.run(seed, stats);
            CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
            if (!r.serializable()) {
                failures.add("seed=" + seed + " tree=" + tree.describe() + ": " + r.summary(5));
            }
        } catch (RuntimeException | AssertionError e) {
            failures.add("seed=" + seed + " tree=" + tree.describe() + ": " + e);
        }
        committed[0] += stats.committed;
        committed[1] += stats.aborted;
    }
}
