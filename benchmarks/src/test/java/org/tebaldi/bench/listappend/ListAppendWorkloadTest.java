package org.tebaldi.bench.listappend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.bench.run.ClusterSnapshot;
import org.tebaldi.bench.sim.SimSeeds;
import org.tebaldi.bench.sim.SimWorkloadRun;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.MapSnapshot;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.bench.workload.Workloads;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.history.listappend.ListAppendTxns;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.testkit.UnsafeMechanism;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;

/**
 * {@code workload: list-append} through the benchmark driver's request contract: registered with its options, clean
 * under the shipped three-layer tree on the simulated runtime (both checkers), and its consistency check (the
 * black-box checker with final reads from the final state) catches a lost append and a run without concurrency
 * control.
 */
class ListAppendWorkloadTest {
    private static Workload create(Map<String, ?> options) {
        return Workloads.create(WorkloadOptions.of("list-append", options));
    }

    private static CcTree shippedTree(Workload w) {
        return TreeLoader.load(Path.of("../config/trees/list-append-3layer.yaml"), TreeContext.of(w.database()));
    }

    @Test
    void registeredWithOptions() {
        assertInstanceOf(ListAppendWorkload.class, create(Map.of("keysPerTable", 3, "opsPerTxn", 2)));
        ConfigException e = assertThrows(ConfigException.class, () -> create(Map.of("keys", 3)));
        assertTrue(e.getMessage().contains("keys"), e.getMessage());
        assertThrows(ConfigException.class, () -> create(Map.of("readOnlyShare", 2)));
    }

    @Test
    void cleanUnderTheShippedThreeLayerTree() {
        Workload w = create(Map.of("keysPerTable", 3));
        SimSeeds.Totals t = SimSeeds.run(() -> create(Map.of("keysPerTable", 3)), shippedTree(w), 1, 3, 4, 15);
        SimSeeds.assertClean("list-append 3-layer", t, List.of("t_a", "t_b", "t_c", "t_ro"), 3 * 4 * 15);
    }

    @Test
    void noConcurrencyControlIsCaughtByTheBlackBoxChecker() {
        UnsafeMechanism unsafe = new UnsafeMechanism();
        CcTree tree = CcTree.build(TreeSpec.leaf("unsafe", "t_a", "t_b", "t_c", "t_ro"), "unsafe");
        SimSeeds.Totals t = SimSeeds.run(() -> create(Map.of("keysPerTable", 2)), tree, 1, 2, 6, 20,
                n -> n.equals("unsafe") ? unsafe : Mechanisms.get(n));
        List<String> blackBox = t.problems().stream().filter(p -> p.contains("list-append: INVALID")).toList();
        assertFalse(blackBox.isEmpty(), () -> "not caught by the list-append checker: " + t.problems());
        System.out.println("list-append without concurrency control: " + blackBox.get(0));
    }

    @Test
    void aLostAppendInTheFinalStateIsCaught() {
        ListAppendWorkload w = (ListAppendWorkload) create(Map.of("keysPerTable", 2));
        try (SimWorkloadRun run = new SimWorkloadRun(w, shippedTree(w), 7, SimulatedRuntime.Model.jittery(), 2, 2)) {
            run.runClients(3, 10);
            ClusterSnapshot real = run.snapshot();
            MapSnapshot lossy = new MapSnapshot(w.database().catalog());
            boolean[] dropped = {false};
            for (String table : List.of(ListAppendTxns.TABLE_A, ListAppendTxns.TABLE_B)) {
                TableSchema schema = w.database().catalog().table(table);
                real.forEach(table, (k, r) -> {
                    List<Long> l = new ArrayList<>(ListAppendTxns.list(r));
                    if (!dropped[0] && !l.isEmpty()) {
                        l.remove(l.size() - 1);
                        dropped[0] = true;
                    }
                    lossy.rows.put(k, schema.row(String.join(",", l.stream().map(String::valueOf).toList())));
                });
            }
            assertTrue(dropped[0]);
            ConsistencyResult c = w.check(lossy);
            assertFalse(c.consistent(), c.summary());
            assertTrue(c.problems().stream().anyMatch(p -> p.startsWith("lost-append")), c.problems()::toString);
            assertTrue(w.check(real).consistent(), () -> w.check(real).problems().toString());
        }
    }
}
