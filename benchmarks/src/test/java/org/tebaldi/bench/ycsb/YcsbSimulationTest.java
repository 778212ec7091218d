package org.tebaldi.bench.ycsb;

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
 * Short YCSB runs on the simulated runtime (2 TCs, 3 DSs, 8 closed-loop clients of 20 transactions, random delays,
 * node pauses on odd seeds; 40 rows, Zipf 0.9, half reads, 4 operations per transaction, so conflicts are frequent)
 * under the shipped trees ycsb-2pl, ycsb-ssi and ycsb-tso: every client finishes, the balances sum to zero and the
 * history is serializable. A negative control without concurrency control must be caught.
 * {@code -Dtebaldi.ycsb.seeds=N} runs more seeds.
 */
class YcsbSimulationTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.ycsb.seeds", 4);
    private static final int CLIENTS = 8;
    private static final int TXNS_EACH = 20;
    private static final Supplier<Workload> SMALL = () -> new YcsbWorkload(new YcsbConfig(40, 0.9, 0.5, 4, 2, 8));

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ycsb-2pl", "ycsb-ssi", "ycsb-tso"})
    void shippedTreesKeepBalancesAndHistoriesSerializable(String tree) {
        CcTree t = SimSeeds.shippedTree(tree, SMALL.get());
        SimSeeds.Totals totals = SimSeeds.run(SMALL, t, 900 + Math.abs(tree.hashCode() % 100), SEEDS, CLIENTS,
                TXNS_EACH);
        SimSeeds.assertClean(tree, totals, List.of(YcsbTxn.NAME), SEEDS * CLIENTS * TXNS_EACH);
    }

    @Test
    void noConcurrencyControlIsCaught() {
        UnsafeMechanism unsafe = new UnsafeMechanism();
        SimSeeds.Totals t = SimSeeds.run(SMALL, CcTree.build(TreeSpec.leaf("unsafe", YcsbTxn.NAME), "unsafe"), 1, 2,
                CLIENTS, TXNS_EACH, n -> n.equals("unsafe") ? unsafe : Mechanisms.get(n));
        assertFalse(t.problems().isEmpty(), "no violation found although nothing regulates conflicts");
        System.out.println("YCSB without concurrency control: " + t.problems().get(0));
    }
}
