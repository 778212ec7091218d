package org.tebaldi.bench.tpcc;

import org.tebaldi.core.testkit.UnsafeMechanism;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * Short TPC-C runs under the deterministic simulated runtime (2 TCs, 3 DSs, 3 warehouses of 100 items, 30
 * customers and 30 orders per district, 9 closed-loop clients, random network delays, node pauses on odd seeds):
 * every client finishes, nothing is left running, all TPC-C consistency conditions hold on the final state and the
 * merged history is serializable — for several seeds, under monolithic 2PL and under
 * 2pl{2pl[new_order, payment, delivery], none[order_status, stock_level]}, for both mixes, and with deliveries
 * catching up with new orders (one undelivered order per district at load). A negative control
 * with no concurrency control must be caught. {@code -Dtebaldi.tpcc.seeds=N} runs more seeds.
 */
class TpccSimulationTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.tpcc.seeds", 8);
    private static final int CLIENTS = 9;
    private static final int TXNS_EACH = 25;

    private static TpccConfig config(TpccMix mix) {
        return new TpccConfig(3, 100, 30, 30, mix, 1L);
    }

    /** One undelivered order per district at load: deliveries catch up with new orders and find districts empty. */
    private static TpccConfig fewOrders() {
        return new TpccConfig(3, 100, 30, 4, TpccMix.STANDARD, 1L);
    }

    /** Totals of a multi-seed run. */
    private static final class Totals {
        final Map<String, Integer> committed = new TreeMap<>();
        final List<String> problems = new ArrayList<>();
        int retries;
        long emptyDistricts;
    }

    private static Totals runSeeds(TpccMix mix, CcTree tree, long firstSeed, int seeds,
                                   Function<String, Mechanism> mechanisms) {
        return runSeeds(config(mix), tree, firstSeed, seeds, mechanisms);
    }

    private static Totals runSeeds(TpccConfig cfg, CcTree tree, long firstSeed, int seeds,
                                   Function<String, Mechanism> mechanisms) {
        Totals t = new Totals();
        for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
            SimulatedRuntime.Model model = seed % 2 == 1 ? SimulatedRuntime.Model.withPauses()
                    : SimulatedRuntime.Model.jittery();
            SimTpcc db = new SimTpcc(cfg.withSeed(seed), tree, seed, model, 2, 3, mechanisms);
            try {
                db.runClients(CLIENTS, TXNS_EACH);
                ConsistencyReport r = db.consistency();
                if (!r.ok()) {
                    t.problems.add("seed=" + seed + " " + r.summary(5));
                }
                CheckResult h = db.serializability();
                if (!h.serializable()) {
                    t.problems.add("seed=" + seed + " " + h.summary(5));
                }
                if (db.committedTotal() != CLIENTS * TXNS_EACH) {
                    t.problems.add("seed=" + seed + " committed " + db.committedTotal());
                }
            } catch (AssertionError | RuntimeException e) {
                t.problems.add("seed=" + seed + " " + e.getMessage());
            } finally {
                db.committed.forEach((k, v) -> t.committed.merge(k, v[0], Integer::sum));
                t.retries += db.retries;
                t.emptyDistricts += db.skippedDeliveries;
                db.cluster.close();
            }
        }
        return t;
    }

    private static void assertClean(String what, TpccMix mix, Totals t) {
        assertTrue(t.problems.isEmpty(), () -> what + ": " + t.problems.size() + " of " + SEEDS + " seeds failed:\n"
                + String.join("\n", t.problems));
        for (String type : mix.types()) {
            assertTrue(t.committed.getOrDefault(type, 0) > 0, () -> what + ": no " + type + " committed " + t.committed);
        }
        assertEquals(SEEDS * CLIENTS * TXNS_EACH, t.committed.values().stream().mapToInt(Integer::intValue).sum());
        System.out.printf("%s: %d seeds, committed %s, %d retried attempts%n", what, SEEDS, t.committed, t.retries);
    }

    @Test
    void standardMixUnderMonolithic2plIsConsistentAndSerializable() {
        CcTree tree = CcTree.build(TreeSpec.leaf("2pl", TpccMix.STANDARD.types().toArray(new String[0])), "2pl");
        assertClean("2pl", TpccMix.STANDARD, runSeeds(TpccMix.STANDARD, tree, 1, SEEDS, Mechanisms::get));
    }

    @Test
    void standardMixUnder2plOverUpdateAndReadOnlyGroups() {
        CcTree tree = CcTree.build(TreeSpec.inner("2pl",
                TreeSpec.leaf("2pl", NewOrder.NAME, Payment.NAME, Delivery.NAME),
                TreeSpec.leaf("none", OrderStatus.NAME, StockLevel.NAME)), "2pl-none");
        assertClean("2pl{2pl[NO,PAY,DEL], none[OS,SL]}", TpccMix.STANDARD,
                runSeeds(TpccMix.STANDARD, tree, 101, SEEDS, Mechanisms::get));
    }

    @Test
    void deliveriesCatchingUpWithNewOrdersUnderMonolithic2pl() {
        CcTree tree = CcTree.build(TreeSpec.leaf("2pl", TpccMix.STANDARD.types().toArray(new String[0])), "2pl");
        Totals t = runSeeds(fewOrders(), tree, 301, SEEDS, Mechanisms::get);
        assertClean("2pl, 1 undelivered order per district", TpccMix.STANDARD, t);
        assertTrue(t.emptyDistricts > 0, "no delivery found a district without undelivered orders");
    }

    @Test
    void hotItemMixUnderMonolithic2plIsConsistentAndSerializable() {
        CcTree tree = CcTree.build(TreeSpec.leaf("2pl", TpccMix.HOT_ITEM.types().toArray(new String[0])), "2pl");
        assertClean("2pl hot_item", TpccMix.HOT_ITEM, runSeeds(TpccMix.HOT_ITEM, tree, 201, SEEDS, Mechanisms::get));
    }

    /** Every shipped TPC-C tree (config/trees; dissertation Fig 4.6 a–d, Fig 5.2) under the standard mix. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"2pl", "ssi", "callas-1", "callas-2", "tebaldi-2layer",
            "tebaldi-3layer", "initial"})
    void shippedTreesAreConsistentAndSerializable(String name) {
        TpccBenchmark b = new TpccBenchmark(config(TpccMix.STANDARD));
        CcTree tree = org.tebaldi.core.tree.TreeLoader.load(java.nio.file.Path.of("../config/trees/" + name + ".yaml"),
                org.tebaldi.core.tree.TreeContext.of(b.database()));
        assertClean(name, TpccMix.STANDARD, runSeeds(TpccMix.STANDARD, tree, 1000 + name.hashCode() % 1000, SEEDS,
                Mechanisms::get));
    }

    /** The hot_item trees of the extensibility experiment (dissertation §4.6.3), under the hot_item mix. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"hot-item-3layer", "hot-item-4layer"})
    void hotItemTreesAreConsistentAndSerializable(String name) {
        TpccBenchmark b = new TpccBenchmark(config(TpccMix.HOT_ITEM));
        CcTree tree = org.tebaldi.core.tree.TreeLoader.load(java.nio.file.Path.of("../config/trees/" + name + ".yaml"),
                org.tebaldi.core.tree.TreeContext.of(b.database()));
        assertClean(name, TpccMix.HOT_ITEM, runSeeds(TpccMix.HOT_ITEM, tree, 2000 + name.hashCode() % 1000, SEEDS,
                Mechanisms::get));
    }

    @Test
    void noConcurrencyControlIsCaught() {
        CcTree tree = CcTree.build(TreeSpec.leaf("unsafe", TpccMix.STANDARD.types().toArray(new String[0])),
                "unsafe");
        UnsafeMechanism unsafe = new UnsafeMechanism();
        Totals t = runSeeds(TpccMix.STANDARD, tree, 1, 3, n -> n.equals("unsafe") ? unsafe : Mechanisms.get(n));
        assertFalse(t.problems.isEmpty(), "no violation found although nothing regulates conflicts");
        System.out.println("TPC-C without concurrency control: " + t.problems.size() + " problems, first: "
                + t.problems.get(0));
    }
}
