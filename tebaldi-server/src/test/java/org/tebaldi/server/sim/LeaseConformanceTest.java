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
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * TicToc and Sundial under the simulated runtime: as the whole tree (Sundial with each caching policy), and as a leaf
 * under the parents the composability rules allow (2PL, SSI, TSO; under TSO also one level down), on the bank, mix and list-append workloads. Every
 * history is serializable with no aborted or intermediate read, the invariants hold, every client finishes.
 * {@code -Dtebaldi.seeds=N} runs N seeds per case (default 30, kept short for the build) and {@code
 * -Dtebaldi.leaseTrees=N} draws N random trees holding a lease leaf (default 30, 5 seeds each); the long run is in
 * docs/reliability.md. Random trees drawing them are also in {@link ConformanceSuiteTest} and the burn test.
 */
class LeaseConformanceTest {
    static Stream<Arguments> cases() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> procBank = () -> new BankWorkload(6, true);
        Supplier<SimWorkload> mix = () -> new MixWorkload(5);
        Supplier<SimWorkload> la = () -> new ListAppendWorkload(5);
        List<Arguments> out = new ArrayList<>();
        for (String m : List.of("tictoc", "sundial")) {
            out.add(Arguments.of("bank", bank, TreeSpec.leaf(m, "transfer", "audit")));
            out.add(Arguments.of("bank-procedures", procBank, TreeSpec.leaf(m, "transfer", "audit")));
            out.add(Arguments.of("mix", mix, TreeSpec.leaf(m, "rw1", "rw2", "ro")));
            out.add(Arguments.of("list-append", la, TreeSpec.leaf(m, "t_a", "t_b", "t_c", "t_ro")));
            out.add(Arguments.of("mix", mix, TreeSpec.inner("2pl", TreeSpec.leaf(m, "rw1", "ro"),
                    TreeSpec.leaf("2pl", "rw2"))));
            out.add(Arguments.of("list-append", la, TreeSpec.inner("2pl", TreeSpec.leaf(m, "t_a", "t_b"),
                    TreeSpec.leaf("2pl", "t_c", "t_ro"))));
            out.add(Arguments.of("bank", bank, TreeSpec.inner("ssi", TreeSpec.leaf(m, "transfer"),
                    TreeSpec.leaf("none", "audit"))));
            out.add(Arguments.of("mix", mix, TreeSpec.inner("ssi", TreeSpec.leaf(m, "rw1"),
                    TreeSpec.leaf("2pl", "rw2", "ro")).option("batchInterval", "1ms")));
            out.add(Arguments.of("mix", mix, TreeSpec.inner("tso", TreeSpec.leaf(m, "rw1", "ro"),
                    TreeSpec.leaf("2pl", "rw2")).option("batchInterval", "1ms")));
            out.add(Arguments.of("list-append", la, TreeSpec.inner("tso", TreeSpec.leaf(m, "t_a", "t_b"),
                    TreeSpec.leaf("2pl", "t_c", "t_ro")).option("batchInterval", "1ms")));
            out.add(Arguments.of("list-append", la, TreeSpec.inner("tso", TreeSpec.inner("2pl",
                    TreeSpec.leaf(m, "t_b"), TreeSpec.leaf("ssi", "t_c")), TreeSpec.leaf("tso", "t_a"),
                    TreeSpec.leaf("rp", "t_ro")).option("batchInterval", "1ms")));
        }
        for (String policy : List.of("always-reuse", "always-request", "hybrid")) {
            out.add(Arguments.of("bank", bank, TreeSpec.leaf("sundial", "transfer", "audit").option("cache", policy)));
            out.add(Arguments.of("mix", mix, TreeSpec.leaf("sundial", "rw1", "rw2", "ro").option("cache", policy)));
            out.add(Arguments.of("list-append", la, TreeSpec.leaf("sundial", "t_a", "t_b", "t_c", "t_ro")
                    .option("cache", policy)));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} under {2}")
    @MethodSource("cases")
    void serializableOverManySeeds(String name, Supplier<SimWorkload> workload, TreeSpec spec) {
        CcTree tree = CcTree.build(spec, name);
        SimSuite.Totals t = SimSuite.run(workload, tree, SimSuite.seeds(30));
        assertTrue(t.failures().isEmpty(), () -> SimSuite.report(t));
        assertTrue(t.committed() > 0);
        System.out.printf("%s under %s: %d seeds, %d committed, %d aborted attempts%n", name, tree.describe(),
                t.runs(), t.committed(), t.aborted());
    }

    /** Random trees of depth up to 3 that hold a lease-based leaf, over the four workloads. */
    @Test
    void randomTreesWithALeaseLeaf() {
        int trees = Integer.getInteger("tebaldi.leaseTrees", 30);
        List<Supplier<SimWorkload>> workloads = List.of(() -> new MixWorkload(5), () -> new BankWorkload(6),
                () -> new BankWorkload(6, true), () -> new ListAppendWorkload(5));
        List<String> failures = new ArrayList<>();
        int found = 0;
        int runs = 0;
        for (long i = 1; found < trees && i < 100L * trees; i++) {
            Supplier<SimWorkload> w = workloads.get((int) (i % workloads.size()));
            TreeSpec spec = new RandomTrees(w.get().database(), 7_000 + i, 3).next();
            CcTree tree = CcTree.build(spec, "random#" + i);
            String d = tree.describe();
            if (!d.contains("tictoc") && !d.contains("sundial")) {
                continue;
            }
            found++;
            SimSuite.Totals t = SimSuite.run(w, tree, SimSuite.seeds(5));
            runs += t.runs();
            t.failures().forEach(f -> failures.add(d + " " + f));
        }
        int total = runs;
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + total + " runs failed:\n  "
                + String.join("\n  ", failures.subList(0, Math.min(10, failures.size()))));
        System.out.println("random trees with a lease leaf: " + found + " trees, " + total + " runs, no violation");
    }
}
