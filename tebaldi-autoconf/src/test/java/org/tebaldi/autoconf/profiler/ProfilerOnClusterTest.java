package org.tebaldi.autoconf.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * The profiler end to end on a simulated cluster: "hot" transactions fight over one row under 2PL while "cold"
 * ones touch private rows; the monitor must name hot–hot as the bottleneck edge, and with profiling off no event
 * is recorded.
 */
class ProfilerOnClusterTest {
    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    ProfilerOnClusterTest() {
        db.interactive("hot", false);
        db.interactive("cold", false);
    }

    private List<WindowReport> run(boolean profiling) {
        SimulatedRuntime sim = new SimulatedRuntime(7, SimulatedRuntime.Model.jittery());
        ClusterConfig cfg = new ClusterConfig(db, CcTree.build(TreeSpec.leaf("2pl", "hot", "cold"), "p"), 2, 2,
                null, false).withProfiling(profiling ? 20_000 : 0);
        Cluster c = new Cluster(sim, cfg, 64);
        ProfilerMonitor monitor = new ProfilerMonitor(100_000);
        c.addNode(new NodeId(Role.MONITOR, 0), monitor);
        for (long k = 0; k <= 100; k++) {
            c.load(Key.of(t, k), t.row(0L));
        }
        c.start();
        Random rnd = new Random(3);
        for (int i = 0; i < 8; i++) {
            TxnClient client = c.client(i);
            boolean hot = i < 6;
            long own = 10 + i;
            sim.at(rnd.nextInt(100), () -> loop(sim, client, hot, own));
        }
        sim.runUntil(1_000_000);
        return monitor.reports();
    }

    private void loop(SimulatedRuntime sim, TxnClient client, boolean hot, long own) {
        if (sim.nowMicros() > 900_000) {
            return;
        }
        long key = hot ? 0 : own;
        client.begin(hot ? "hot" : "cold", Inputs.NONE, sim.nowMicros())
                .thenCompose(tx -> tx.readForUpdate("t", key).thenCompose(r ->
                        tx.write(t.row(r.getLong("v") + 1), key)).thenCompose(x -> tx.commit()))
                .handle((v, e) -> {
                    sim.at(sim.nowMicros() + 10, () -> loop(sim, client, hot, own));
                    return CompletableFuture.completedFuture(null);
                });
    }

    @Test
    void theMonitorNamesTheHotEdge() {
        List<WindowReport> reports = run(true);
        assertTrue(reports.size() >= 8, "a report per 100 ms window: " + reports.size());
        int hot = db.type("hot").id();
        long named = reports.stream().filter(r -> ConflictEdge.of(hot, hot).equals(r.bottleneck())).count();
        assertTrue(named >= reports.size() - 2, "hot-hot is the bottleneck in (nearly) every window: "
                + reports.stream().map(r -> r.describe(db)).toList());
        int cold = db.type("cold").id();
        assertFalse(reports.stream().anyMatch(r -> r.edges().containsKey(ConflictEdge.of(cold, cold))),
                "cold transactions never block each other");
    }

    @Test
    void profilingOffRecordsNothing() {
        List<WindowReport> reports = run(false);
        assertTrue(reports.size() >= 8);
        assertEquals(0, reports.stream().mapToInt(WindowReport::events).sum());
    }
}
