package org.tebaldi.autoconf.configurator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;


import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeSpec;

/**
 * The configuration loop (dissertation Fig 5.1) against a noise-free model of a cluster whose bottleneck and
 * throughput depend on the tree, on a SEATS-like database ({@link SeatsLike}). Also the filters and preprocessing it
 * applies. The statistics under noise: {@link ConfiguratorNoiseTest}.
 */
class ConfiguratorTest {
    private final TreeContext ctx = new SeatsLike().ctx;

    /** Replays a scripted cluster: a bottleneck per tree (by canonical form), throughput per tree. */
    private static final class Model implements Configurator.Target {
        final Map<String, Bottleneck> bottlenecks;
        final Function<String, Double> throughput;
        final List<String> swaps = new ArrayList<>();
        String running;

        Model(CcTree start, Map<String, Bottleneck> bottlenecks, Function<String, Double> throughput) {
            this.running = start.canonical();
            this.bottlenecks = bottlenecks;
            this.throughput = throughput;
        }

        @Override
        public Bottleneck analyze() {
            return bottlenecks.get(running);
        }

        @Override
        public double[] sample(int count) {
            double[] xs = new double[count];
            java.util.Arrays.fill(xs, throughput.apply(running));
            return xs;
        }

        @Override
        public String swap(CcTree tree) {
            running = tree.canonical();
            swaps.add(tree.describe());
            return "swapped";
        }
    }

    private static String canon(TreeSpec s) {
        return SeatsLike.canon(s);
    }

    private static Bottleneck edge(String a, String b) {
        return new Bottleneck(List.of(new Bottleneck.Edge(a, b, 500_000)));
    }

    private Configurator configurator(int maxIterations) {
        return configurator(maxIterations, 1);
    }

    private Configurator configurator(int maxIterations, int edges) {
        return new Configurator(ctx, new Configurator.Settings(List.of("rp", "tso"), maxIterations, 0.03, 1000, 20,
                edges, 3, 3, 0.9, 0.98, 5, 3, 0.05, 10));
    }

    @Test
    void theInitialTreeSeparatesReadOnlyFromUpdateTypes() {
        assertEquals("ssi{none[browse],2pl[reserve,cancel]}", InitialTree.of(ctx).describe());
    }

    @Test
    void followsTheBestCandidateUntilNothingImproves() throws InterruptedException {
        CcTree start = InitialTree.of(ctx);
        // round 1: reserve against itself; TSO per flight wins. Round 2: reserve against cancel; joining cancel to
        // the TSO-per-flight leaf wins (as in the dissertation's SEATS run, Fig 5.16). Round 3: nothing better.
        String r1 = canon(TreeSpec.inner("ssi", TreeSpec.leaf("none", "browse"), TreeSpec.inner("2pl",
                TreeSpec.leaf("2pl", "cancel"), TreeSpec.leaf("tso", "reserve").instanceBy("flight"))));
        String r2 = canon(TreeSpec.inner("ssi", TreeSpec.leaf("none", "browse"),
                TreeSpec.leaf("tso", "reserve", "cancel").instanceBy("flight")));
        Map<String, Bottleneck> b = Map.of(start.canonical(), edge("reserve", "reserve"), r1,
                edge("reserve", "cancel"), r2, edge("reserve", "reserve"));
        Model m = new Model(start, b, t -> t.equals(r1) ? 200.0 : t.equals(r2) ? 300.0 : 100.0);
        List<String> finished = new ArrayList<>();
        List<Iteration> its = configurator(10).run(start, m, new Configurator.Listener() {
            @Override
            public void finished(String why) {
                finished.add(why);
            }
        });
        assertEquals(3, its.size(), its::toString);
        assertEquals(r1, its.get(0).adopted().canonical());
        assertEquals(r2, its.get(1).adopted().canonical());
        assertFalse(its.get(2).improved());
        assertEquals(r2, its.get(2).adopted().canonical());
        assertEquals(r2, m.running, "the cluster ends on the adopted tree");
        assertTrue(finished.get(0).startsWith("no candidate significantly better"), finished::toString);
        // round 1 tried RP and plain TSO for reserve, and TSO partitioned by flight (preprocessing, §5.4.2)
        List<String> tried = its.get(0).trials().stream().filter(t -> t.rejected() == null)
                .map(t -> t.candidate().tree().canonical()).toList();
        assertTrue(tried.contains(canon(TreeSpec.inner("ssi", TreeSpec.leaf("none", "browse"), TreeSpec.inner("2pl",
                TreeSpec.leaf("2pl", "cancel"), TreeSpec.leaf("rp", "reserve"))))), tried::toString);
        assertTrue(tried.contains(canon(TreeSpec.inner("ssi", TreeSpec.leaf("none", "browse"), TreeSpec.inner("2pl",
                TreeSpec.leaf("2pl", "cancel"), TreeSpec.leaf("tso", "reserve"))))), tried::toString);
        assertTrue(tried.contains(r1), tried::toString);
        assertEquals(200.0, its.get(0).adoptedTxnPerSec());
    }

    @Test
    void stopsWithoutABottleneck() throws InterruptedException {
        CcTree start = InitialTree.of(ctx);
        Model m = new Model(start, Map.of(), t -> 100.0);
        List<Iteration> its = configurator(10).run(start, m, new Configurator.Listener() { });
        assertEquals(1, its.size());
        assertTrue(m.swaps.isEmpty());
    }

    @Test
    void keepsTheCurrentTreeWhenEveryCandidateIsWorseAndSwapsBack() throws InterruptedException {
        CcTree start = InitialTree.of(ctx);
        Model m = new Model(start, Map.of(start.canonical(), edge("reserve", "cancel")),
                t -> t.equals(start.canonical()) ? 100.0 : 90.0);
        List<Iteration> its = configurator(10).run(start, m, new Configurator.Listener() { });
        assertEquals(1, its.size());
        assertFalse(its.get(0).improved());
        assertFalse(m.swaps.isEmpty());
        assertEquals(start.canonical(), m.running);
    }

    @Test
    void aGainBelowTheMarginIsNotAdopted() throws InterruptedException {
        CcTree start = InitialTree.of(ctx);
        Model m = new Model(start, Map.of(start.canonical(), edge("reserve", "reserve")),
                t -> t.equals(start.canonical()) ? 100.0 : 102.0);
        assertFalse(configurator(10).run(start, m, new Configurator.Listener() { }).get(0).improved());
    }

    @Test
    void filtersRejectWhatCannotEnforceConsistentOrderingEfficiently() {
        CcTree start = InitialTree.of(ctx);
        List<Iteration.Trial> rejected = new ArrayList<>();
        List<Candidate> ok = configurator(1).candidates(start, edge("reserve", "cancel").top(), rejected);
        // a TSO node over two 2PL leaves is allowed but inefficient (§4.4.4): filtered out
        assertTrue(rejected.stream().anyMatch(t -> t.candidate().tree().canonical().equals(canon(TreeSpec.inner(
                "ssi", TreeSpec.leaf("none", "browse"), TreeSpec.inner("tso", TreeSpec.leaf("2pl", "reserve"),
                        TreeSpec.leaf("2pl", "cancel")))))), rejected::toString);
        assertTrue(ok.stream().allMatch(c -> new Filters(ctx).reject(c.tree()) == null));
        assertTrue(ok.stream().anyMatch(c -> c.tree().canonical().equals(canon(TreeSpec.inner("ssi",
                TreeSpec.leaf("none", "browse"), TreeSpec.inner("rp", TreeSpec.leaf("2pl", "reserve"),
                        TreeSpec.leaf("2pl", "cancel")))))), ok::toString);
    }

    @Test
    void ssiBelowTheRootOrWithTwoUpdateGroupsIsFiltered() {
        Filters f = new Filters(ctx);
        CcTree twoGroups = CcTree.build(TreeSpec.inner("ssi",
                TreeSpec.leaf("2pl", "reserve"), TreeSpec.leaf("2pl",
                        "cancel", "browse")).placeAt("root"), "t");
        assertTrue(f.reject(twoGroups).contains("batching"), f.reject(twoGroups));
        assertEquals(null, f.reject(InitialTree.of(ctx)));
    }

    @Test
    void turnsToTheNextEdgeWhenTheBottleneckCannotBeImproved() throws InterruptedException {
        CcTree start = InitialTree.of(ctx);
        String better = canon(TreeSpec.inner("ssi", TreeSpec.leaf("none", "browse"), TreeSpec.inner("2pl",
                TreeSpec.leaf("2pl", "reserve"), TreeSpec.leaf("rp", "cancel"))));
        Bottleneck two = new Bottleneck(List.of(new Bottleneck.Edge("reserve", "reserve", 900_000),
                new Bottleneck.Edge("cancel", "cancel", 400_000), new Bottleneck.Edge("browse", "reserve", 10)));
        Model m = new Model(start, Map.of(start.canonical(), two), t -> t.equals(better) ? 150.0 : 100.0);
        // Fig 5.1 alone stops: nothing helps reserve–reserve
        assertFalse(configurator(1, 1).run(start, m, new Configurator.Listener() { }).get(0).improved());
        m.running = start.canonical();
        Iteration it = configurator(1, 3).run(start, m, new Configurator.Listener() { }).get(0);
        assertTrue(it.improved(), it::toString);
        assertEquals(better, it.adopted().canonical());
        assertTrue(it.trials().stream().anyMatch(t -> t.edge().equals("reserve–reserve")));
        assertTrue(it.trials().stream().noneMatch(t -> t.edge().equals("browse–reserve")),
                "edges under minScore are not explored");
    }
}
