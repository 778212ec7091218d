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
import org.tebaldi.core.tree.CompositionRule;
import org.tebaldi.core.tree.CompositionRules;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.tree.Verdict;

/**
 * The conformance suite of issue 4: every parent/child pair the composability rules allow (inefficient ones
 * included), and random trees of depth up to 3 drawn from all five mechanisms, on random workloads — each history
 * checked (no cycle, no aborted or intermediate read), bank invariants checked, liveness checked. CI runs
 * {@code tebaldi.pairSeeds} (default 40) seeds per pair and {@code tebaldi.trees} (default 60) random trees ×
 * {@code tebaldi.treeSeeds} (default 5) seeds × 3 workloads; the longer run is in the README.
 */
class ConformanceSuiteTest {
    private static final int PAIR_SEEDS = Integer.getInteger("tebaldi.pairSeeds", 40);
    private static final int TREES = Integer.getInteger("tebaldi.trees", 60);
    private static final int TREE_SEEDS = Integer.getInteger("tebaldi.treeSeeds", 5);

    static Stream<Arguments> pairs() {
        List<Arguments> out = new ArrayList<>();
        for (CompositionRule r : CompositionRules.standard().rules()) {
            if (r.verdict() == Verdict.FORBIDDEN) {
                continue;
            }
            TreeSpec child = r.child().equals("none") ? TreeSpec.leaf("none", "ro") : TreeSpec.leaf(r.child(), "rw1");
            TreeSpec other = r.child().equals("none") ? TreeSpec.leaf("2pl", "rw1", "rw2") : TreeSpec.leaf("2pl", "rw2", "ro");
            out.add(Arguments.of(r.parent() + " over " + r.child(), TreeSpec.inner(r.parent(), child, other)));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void everyAllowedPair(String name, TreeSpec spec) {
        CcTree tree = CcTree.build(spec, name);
        long[] seeds = seedRange(name.hashCode() & 0xffff, PAIR_SEEDS);
        SimSuite.Totals t = SimSuite.run(() -> new MixWorkload(5), tree, seeds);
        assertTrue(t.failures().isEmpty(), () -> SimSuite.report(t));
        assertTrue(t.committed() > 0);
    }

    @Test
    void randomTreesOfDepthUpToThree() {
        List<String> failures = new ArrayList<>();
        int runs = 0;
        List<Supplier<SimWorkload>> workloads = List.of(() -> new MixWorkload(5), () -> new BankWorkload(6),
                () -> new BankWorkload(6, true));
        for (int i = 1; i <= TREES; i++) {
            Supplier<SimWorkload> w = workloads.get(i % workloads.size());
            TreeSpec spec = new RandomTrees(w.get().database(), i, 3).next();
            CcTree tree = CcTree.build(spec, "random#" + i);
            SimSuite.Totals t = SimSuite.run(w, tree, seedRange(i * 1000L, TREE_SEEDS));
            runs += t.runs();
            int treeNo = i;
            t.failures().forEach(f -> failures.add("tree #" + treeNo + " " + f));
        }
        int total = runs;
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + total + " runs failed:\n  "
                + String.join("\n  ", failures.subList(0, Math.min(10, failures.size()))));
        System.out.println("random trees: " + TREES + " trees, " + total + " checked runs, no violation");
    }

    private static long[] seedRange(long first, int n) {
        String one = System.getProperty("tebaldi.seed");
        if (one != null) {
            return new long[]{Long.parseLong(one)};
        }
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = first + i;
        }
        return s;
    }
}
