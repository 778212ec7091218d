package org.tebaldi.bench.micro;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tebaldi.bench.sim.SimSeeds;
import org.tebaldi.core.testkit.UnsafeMechanism;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * Short runs of the microbenchmarks on the simulated runtime (2 TCs, 3 DSs, 8 closed-loop clients of 20
 * transactions, random delays, node pauses on odd seeds) under every shipped micro tree (config/trees/micro-*.yaml:
 * Fig 4.10's cross-group trees, Fig 4.11's five trees, Table 4.1's four), shrunk so that conflicts are frequent
 * (shared table of 3 rows, local 3, others 20; table A of 3 rows, B..E 20): every client finishes, the counter sums
 * agree and the history is serializable — with the dissertation's blind writes (the default) and with the
 * increments ({@code writes: increment}, {@code t2: increment}) whose sums are checkable. Negative controls without
 * concurrency control must be caught.
 * {@code -Dtebaldi.micro.seeds=N} runs more seeds.
 */
class MicroSimulationTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.micro.seeds", 3);
    private static final int CLIENTS = 8;
    private static final int TXNS_EACH = 20;

    private static Supplier<Workload> crossGroup(boolean rw) {
        return () -> new CrossGroupWorkload(new CrossGroupWorkload.Config(rw, 3, 3, 20));
    }

    private static Supplier<Workload> crossGroupIncrements(boolean rw) {
        return () -> new CrossGroupWorkload(new CrossGroupWorkload.Config(rw, 3, 3, 20, true));
    }

    private static Supplier<Workload> layers() {
        return () -> new LayersWorkload(3, 20);
    }

    private static Supplier<Workload> layersIncrements() {
        return () -> new LayersWorkload(3, 20, true);
    }

    private static void runShipped(String tree, Supplier<Workload> w, List<String> types) {
        CcTree t = SimSeeds.shippedTree(tree, w.get());
        SimSeeds.Totals totals = SimSeeds.run(w, t, 700 + Math.abs(tree.hashCode() % 300), SEEDS, CLIENTS, TXNS_EACH);
        SimSeeds.assertClean(tree, totals, types, SEEDS * CLIENTS * TXNS_EACH);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2pl", "ssi", "rp"})
    void crossGroupWriteWrite(String cc) {
        runShipped("micro-ww-" + cc, crossGroup(false), List.of("update_a", "update_b"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2pl", "ssi", "rp"})
    void crossGroupReadWrite(String cc) {
        runShipped("micro-rw-" + cc, crossGroup(true), List.of("update_a", "read_b"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"3layer", "2layer-1", "2layer-2", "2layer-3", "2layer-4"})
    void twoVersusThreeLayers(String tree) {
        runShipped("micro-layers-" + tree, layers(), List.of("t1", "t2", "t3"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2pl", "ssi", "rp"})
    void crossGroupIncrements(String cc) {
        runShipped("micro-ww-" + cc, crossGroupIncrements(false), List.of("update_a", "update_b"));
        runShipped("micro-rw-" + cc, crossGroupIncrements(true), List.of("update_a", "read_b"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"3layer", "2layer-1", "2layer-2", "2layer-3", "2layer-4"})
    void twoVersusThreeLayersIncrementing(String tree) {
        runShipped("micro-layers-" + tree, layersIncrements(), List.of("t1", "t2", "t3"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rp", "2pl-rp", "ssi-rp", "rp-rp"})
    void layerOverhead(String tree) {
        runShipped("micro-overhead-" + tree, OverheadWorkload::new, List.of(OverheadWorkload.TYPE));
    }

    @Test
    void noConcurrencyControlIsCaught() {
        UnsafeMechanism unsafe = new UnsafeMechanism();
        SimSeeds.Totals ww = SimSeeds.run(crossGroup(false), CcTree.build(TreeSpec.leaf("unsafe", "update_a",
                "update_b"), "unsafe"), 1, 2, CLIENTS, TXNS_EACH, n -> n.equals("unsafe") ? unsafe : Mechanisms.get(n));
        assertFalse(ww.problems().isEmpty(), "cross_group: no violation found although nothing regulates conflicts");
        SimSeeds.Totals l = SimSeeds.run(layersIncrements(), CcTree.build(TreeSpec.leaf("unsafe", "t1", "t2", "t3"), "unsafe"),
                1, 2, CLIENTS, TXNS_EACH, n -> n.equals("unsafe") ? unsafe : Mechanisms.get(n));
        assertFalse(l.problems().isEmpty(), "layers: no violation found although nothing regulates conflicts");
        System.out.println("micro without concurrency control: " + ww.problems().get(0) + " / " + l.problems().get(0));
    }
}
