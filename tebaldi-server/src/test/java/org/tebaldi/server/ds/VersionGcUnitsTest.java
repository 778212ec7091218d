package org.tebaldi.server.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.HandlerCost;
import org.tebaldi.core.runtime.cost.Hardware;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.sim.BankWorkload;
import org.tebaldi.server.sim.SimHarness;

/**
 * Version collection is charged by its work (docs/simulation.md, "Version collection"): a GC-epoch tick's work units
 * are the chains its eviction pass moved to the base store and the versions it settled — not the chains it looked
 * at, most of which a busy server must keep and looks at again at the next tick.
 */
class VersionGcUnitsTest {
    private static final String KEY = "ds timer/version-gc";

    @Test
    void aTicksUnitsAreTheChainsItEvictedAndTheVersionsItSettled() {
        // 1 µs per unit and nothing else: a server's time under the key is its units, in µs
        CostTable costs = new CostTable("units", Map.of(), 1.0, Map.of(), 0, 0, Map.of(), 100, Map.of(),
                Map.of(KEY, new HandlerCost(0, 1, 0), "ds timer", new HandlerCost(1, 0, 0)), Map.of());
        Hardware hw = new Hardware(1, 8, n -> 0, 50, 100, 5, 10, costs, false);
        SimulatedRuntime[] sim = new SimulatedRuntime[1];
        // 2PL confirms a finished epoch at once, so its tick settles the epoch's versions itself
        CcTree tree = CcTree.build(TreeSpec.leaf("2pl", "transfer", "audit"), "units");
        Cluster c = new SimHarness(new BankWorkload(400), tree).clients(6, 80).gcEpoch(2_000).hardware(hw)
                .onSim((s, cluster) -> sim[0] = s).run(3, new SimHarness.Stats());
        long units = 0;
        long evicted = 0;
        long settled = 0;
        for (DataServer d : c.dataServers()) {
            units += sim[0].cores().busyByKey(NodeId.ds(d.dsIndex())).getOrDefault(KEY, 0L) / 1_000;
            evicted += d.store().stats().evicted();
            settled += d.gc().settled();
        }
        assertTrue(evicted > 100 && settled > 100, "chains were evicted (" + evicted + ") and versions settled ("
                + settled + ")");
        assertEquals(evicted + settled, units, "units charged to version collection's ticks");
    }
}
