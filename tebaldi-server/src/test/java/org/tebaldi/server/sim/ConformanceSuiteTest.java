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
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.CompositionRule;
import org.tebaldi.core.tree.CompositionRules;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.tree.Verdict;

/**
 * The conformance suite: every parent/child pair the composability rules allow (inefficient ones included), on a
 * single-table mix and on the two-table list-append workload (its update types declare the access order
 * {@code [la, lb]}, so a runtime-pipelining node runs two steps — with one table RP never leaves its first step and
 * the suite would prove nothing about its pipeline); every parent over a parent over a two-step RP node; and random
 * trees of depth up to 3 drawn from all registered mechanisms, on random workloads. Each history is checked (no
 * cycle, no aborted or intermediate read), the workloads' invariants and liveness too. CI runs
 * {@code tebaldi.pairSeeds} (default 40) seeds per pair and workload and per depth-two tree, and
 * {@code tebaldi.trees} (default 60) random trees × {@code tebaldi.treeSeeds} (default 5) seeds × 4 workloads; the
 * longer run is in docs/reliability.md.
 */
class ConformanceSuiteTest {
    private static final int PAIR_SEEDS = Integer.getInteger("tebaldi.pairSeeds", 40);
    private static final int TREES = Integer.getInteger("tebaldi.trees", 60);
    private static final int TREE_SEEDS = Integer.getInteger("tebaldi.treeSeeds", 5);
    /** Registered mechanisms the rules cover that may be inner nodes (all but read-only leaves such as none). */
    private static final List<String> INNER = Mechanisms.all().entrySet().stream()
            .filter(e -> CompositionRules.standard().mechanisms().contains(e.getKey()) && !e.getValue().readOnlyLeaf())
            .map(java.util.Map.Entry::getKey).toList();

    static Stream<Arguments> pairs() {
        List<Arguments> out = new ArrayList<>();
        for (CompositionRule r : CompositionRules.standard().rules()) {
            if (r.verdict() == Verdict.FORBIDDEN) {
                continue;
            }
            boolean none = Mechanisms.get(r.child()).readOnlyLeaf();
            TreeSpec child = none ? TreeSpec.leaf(r.child(), "ro") : TreeSpec.leaf(r.child(), "rw1");
            TreeSpec other = none ? TreeSpec.leaf("2pl", "rw1", "rw2") : TreeSpec.leaf("2pl", "rw2", "ro");
            out.add(Arguments.of(r.parent() + " over " + r.child() + " (mix)", TreeSpec.inner(r.parent(), child, other),
                    (Supplier<SimWorkload>) () -> new MixWorkload(5)));
            TreeSpec laChild = none ? TreeSpec.leaf(r.child(), "t_ro") : TreeSpec.leaf(r.child(), "t_a", "t_b");
            TreeSpec laOther = none ? TreeSpec.leaf("2pl", "t_a", "t_b", "t_c") : TreeSpec.leaf("2pl", "t_c", "t_ro");
            out.add(Arguments.of(r.parent() + " over " + r.child() + " (list-append)",
                    TreeSpec.inner(r.parent(), laChild, laOther), (Supplier<SimWorkload>) () -> new ListAppendWorkload(5)));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void everyAllowedPair(String name, TreeSpec spec, Supplier<SimWorkload> workload) {
        check(name, spec, workload);
    }

    /** {@code P{Q{rp[t_a, t_b], 2pl[t_c]}, none[t_ro]}} for every allowed P over Q over RP: a two-step RP at depth 2. */
    static Stream<Arguments> twoStepRpAtDepthTwo() {
        CompositionRules rules = CompositionRules.standard();
        List<Arguments> out = new ArrayList<>();
        for (String p : INNER) {
            for (String q : INNER) {
                if (rules.verdict(p, q) == Verdict.FORBIDDEN || rules.verdict(q, "rp") == Verdict.FORBIDDEN) {
                    continue;
                }
                TreeSpec mid = TreeSpec.inner(q, TreeSpec.leaf("rp", "t_a", "t_b"), TreeSpec.leaf("2pl", "t_c"));
                out.add(Arguments.of(p + " over " + q + " over rp", TreeSpec.inner(p, mid, TreeSpec.leaf("none", "t_ro"))));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("twoStepRpAtDepthTwo")
    void twoStepRpUnderTwoParents(String name, TreeSpec spec) {
        check(name, spec, () -> new ListAppendWorkload(5));
    }

    /**
     * Runtime pipelines of three steps over the three-table list-append workload ({@code la, lb, lc}): transactions
     * that touch {@code la} and {@code lc} only skip a step, so every rule of dissertation §4.4.2 is exercised —
     * skipped steps and the end of execution counted as finished, cross-group dependencies finishing and in-group
     * ones starting a step, direct dependency sets, an aborted predecessor handing its predecessors on — under each
     * parent, as a leaf and as an inner node, and in both variants ({@code stepRule}, {@code dependencies}).
     */
    static Stream<Arguments> threeStepRp() {
        List<Arguments> out = new ArrayList<>();
        for (String opts : List.of("", "stepRule=strict", "dependencies=all")) {
            java.util.function.Function<TreeSpec, TreeSpec> o = t -> opts.isEmpty() ? t
                    : t.option(opts.substring(0, opts.indexOf("=")), opts.substring(opts.indexOf("=") + 1));
            out.add(Arguments.of("rp[all] " + opts, o.apply(TreeSpec.leaf("rp", "t_a", "t_b", "t_c", "t_ro"))));
            out.add(Arguments.of("rp{rp, 2pl} " + opts, o.apply(TreeSpec.inner("rp",
                    o.apply(TreeSpec.leaf("rp", "t_a", "t_b")), TreeSpec.leaf("2pl", "t_c", "t_ro")))));
            out.add(Arguments.of("2pl{rp, rp} " + opts, TreeSpec.inner("2pl", o.apply(TreeSpec.leaf("rp", "t_a", "t_b")),
                    o.apply(TreeSpec.leaf("rp", "t_c", "t_ro")))));
            out.add(Arguments.of("ssi{none, 2pl{rp, rp}} " + opts, TreeSpec.inner("ssi", TreeSpec.leaf("none", "t_ro"),
                    TreeSpec.inner("2pl", o.apply(TreeSpec.leaf("rp", "t_a", "t_b")), o.apply(TreeSpec.leaf("rp", "t_c"))))));
            out.add(Arguments.of("rp{rp, rp} " + opts, o.apply(TreeSpec.inner("rp", o.apply(TreeSpec.leaf("rp", "t_a")),
                    o.apply(TreeSpec.leaf("rp", "t_b", "t_c", "t_ro"))))));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("threeStepRp")
    void threeStepRpWithSkippedSteps(String name, TreeSpec spec) {
        check(name, spec, () -> new ListAppendWorkload(5, 3));
    }

    private static void check(String name, TreeSpec spec, Supplier<SimWorkload> workload) {
        CcTree tree = CcTree.build(spec, name);
        long[] seeds = seedRange(name.hashCode() & 0xffff, PAIR_SEEDS);
        SimSuite.Totals t = SimSuite.run(workload, tree, seeds);
        assertTrue(t.failures().isEmpty(), () -> SimSuite.report(t));
        assertTrue(t.committed() > 0);
    }

    @Test
    void randomTreesOfDepthUpToThree() {
        List<String> failures = new ArrayList<>();
        int runs = 0;
        List<Supplier<SimWorkload>> workloads = List.of(() -> new MixWorkload(5), () -> new BankWorkload(6),
                () -> new BankWorkload(6, true), () -> new ListAppendWorkload(5), () -> new ListAppendWorkload(5, 3));
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
