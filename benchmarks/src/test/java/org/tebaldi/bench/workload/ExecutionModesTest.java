package org.tebaldi.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tebaldi.bench.sim.SimSeeds;
import org.tebaldi.bench.sim.SimWorkloadRun;
import org.tebaldi.bench.tpcc.NewOrder;
import org.tebaldi.bench.tpcc.OrderStatus;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.runtime.MessageStats;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.msg.CallProc;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.TxnOp;
import org.tebaldi.server.msg.TxnOps;

/**
 * {@code workload.execution} and {@code workload.roundTrips} ({@link ExecutionModes}): stored procedures run by the
 * client as interactive transactions keep every invariant and serializability under every shipped tree of their
 * workload (TPC-C, the microbenchmarks of Figs 4.10 and 4.11), and the messages a transaction sends are counted on a
 * simulated cluster: one operation per round trip means one client request and one data-server request per operation,
 * and nothing batched.
 */
class ExecutionModesTest {
    private static Map<String, Object> tpcc(String execution, String roundTrips) {
        Map<String, Object> o = new HashMap<>(Map.of("warehouses", 2L, "items", 200L, "customersPerDistrict", 30L,
                "ordersPerDistrict", 30L));
        o.put("execution", execution);
        o.put("roundTrips", roundTrips);
        return o;
    }

    private static Supplier<Workload> workload(String name, Map<String, Object> options) {
        return () -> Workloads.create(WorkloadOptions.of(name, options));
    }

    @Test
    void theDefaultsLeaveTheWorkloadAsItIs() {
        Workload w = workload("tpcc", tpcc("procedures", "batched")).get();
        assertFalse(w instanceof ExecutionModes);
        assertTrue(w.database().type(NewOrder.NAME).isProcedure());
    }

    @Test
    void interactiveExecutionDeclaresEveryProcedureInteractiveWithItsTableOrder() {
        ExecutionModes w = (ExecutionModes) workload("tpcc", tpcc("interactive", "batched")).get();
        assertEquals(java.util.Set.of("new_order", "payment", "delivery"), w.converted());
        for (TxnType t : w.database().types()) {
            assertFalse(t.isProcedure(), t.name());
            assertFalse(t.accessOrder().isEmpty(), t.name() + " declares its tables for runtime pipelining");
            assertEquals(w.inner().database().type(t.name()).id(), t.id(), "same type ids");
        }
        assertEquals(List.of("district_deliv", "new_order", "district_deliv", "oorder", "order_line", "customer"),
                w.database().type("delivery").accessOrder(), "a cycle closes its step: one step in any group");
    }

    /** Runs one request of {@code type} alone and counts what it sent. */
    private static Map<String, Long> oneTransaction(Workload w, String tree, String type) {
        CcTree t = SimSeeds.shippedTree(tree, w);
        try (SimWorkloadRun run = new SimWorkloadRun(w, t, 5, SimulatedRuntime.Model.jittery(), 2, 3)) {
            ClientSource src = w.newClient(0, 77);
            TxnRequest r = src.next();
            while (!r.type().equals(type)) {
                r = src.next();
            }
            MessageStats m = run.messages();
            long op = m.count(TxnOp.class);
            long ops = m.count(TxnOps.class);
            long exec = m.count(ExecRequest.class);
            long batch = m.count(ExecBatch.class);
            long call = m.count(CallProc.class);
            run.run(r);
            Map<String, Long> out = new HashMap<>();
            out.put("TxnOp", m.count(TxnOp.class) - op);
            out.put("TxnOps", m.count(TxnOps.class) - ops);
            out.put("ExecRequest", m.count(ExecRequest.class) - exec);
            out.put("ExecBatch", m.count(ExecBatch.class) - batch);
            out.put("CallProc", m.count(CallProc.class) - call);
            if (type.equals(NewOrder.NAME)) {
                out.put("lines", (long) ((long[]) r.inputs().get(3)).length);
            }
            return out;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2pl", "tebaldi-3layer"})
    void oneOperationPerRoundTripSendsEachOperationAlone(String tree) {
        Workload w = workload("tpcc", tpcc("interactive", "per-operation")).get();
        Map<String, Long> no = oneTransaction(w, tree, NewOrder.NAME);
        long ops = 6 + 3 * no.get("lines"); // warehouse, district, customer, 3 inserts; item, stock, line per line
        assertEquals(ops, no.get("TxnOp"), "one client request per operation " + no);
        assertEquals(ops, no.get("ExecRequest"), "one data-server request per operation " + no);
        assertEquals(0, no.get("TxnOps") + no.get("ExecBatch") + no.get("CallProc"), "nothing batched " + no);
        Map<String, Long> os = oneTransaction(w, tree, OrderStatus.NAME);
        assertTrue(os.get("TxnOp") >= 4, "customer, index, order, each line alone " + os);
        assertEquals(os.get("TxnOp"), os.get("ExecRequest"), os.toString());
        assertEquals(0, os.get("TxnOps") + os.get("ExecBatch"), "the batched reads go one by one " + os);
    }

    @Test
    void batchedInteractiveAndStoredProceduresSendFewerRequests() {
        Map<String, Long> batched = oneTransaction(workload("tpcc", tpcc("interactive", "batched")).get(), "2pl",
                NewOrder.NAME);
        assertTrue(batched.get("TxnOps") > 0, "the client sends operations together " + batched);
        assertTrue(batched.get("TxnOp") + batched.get("TxnOps") < 6 + 3 * batched.get("lines"), batched.toString());
        Map<String, Long> proc = oneTransaction(workload("tpcc", tpcc("procedures", "per-operation")).get(), "2pl",
                NewOrder.NAME);
        assertEquals(1, proc.get("CallProc"), "a stored procedure is one call " + proc);
        assertEquals(0, proc.get("TxnOp") + proc.get("TxnOps"), proc.toString());
        Map<String, Long> os = oneTransaction(workload("tpcc", tpcc("procedures", "batched")).get(), "2pl",
                OrderStatus.NAME);
        assertTrue(os.get("TxnOps") > 0, "order_status reads an order's lines together by default " + os);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2pl", "ssi", "initial", "callas-1", "callas-2", "tebaldi-2layer", "tebaldi-3layer"})
    void tpccRunsInteractivelyUnderEveryTree(String tree) {
        Supplier<Workload> w = workload("tpcc", tpcc("interactive", "per-operation"));
        SimSeeds.Totals t = SimSeeds.run(w, SimSeeds.shippedTree(tree, w.get()), 300, 2, 6, 12);
        SimSeeds.assertClean("tpcc interactive " + tree, t, List.of("new_order", "payment"), 6 * 12 * 2);
    }

    @Test
    void hotItemRunsInteractivelyUnderItsTrees() {
        Map<String, Object> o = tpcc("interactive", "per-operation");
        o.put("mix", "hot_item");
        Supplier<Workload> w = workload("tpcc", o);
        for (String tree : List.of("hot-item-3layer", "hot-item-4layer")) {
            SimSeeds.Totals t = SimSeeds.run(w, SimSeeds.shippedTree(tree, w.get()), 400, 2, 6, 12);
            assertTrue(t.problems().isEmpty(), tree + ": " + t.problems());
            assertNotNull(t.committed().get("hot_item"), tree + " " + t.committed());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"micro-ww-2pl", "micro-ww-ssi", "micro-ww-rp", "micro-rw-2pl", "micro-rw-ssi",
            "micro-rw-rp", "micro-layers-3layer", "micro-layers-2layer-1", "micro-layers-2layer-2",
            "micro-layers-2layer-3", "micro-layers-2layer-4"})
    void microbenchmarksRunInteractivelyUnderTheirTrees(String tree) {
        Map<String, Object> o = new HashMap<>();
        if (tree.startsWith("micro-layers")) {
            o.putAll(Map.of("benchmark", "layers", "hotRows", 3L, "rows", 20L));
        } else {
            o.putAll(Map.of("benchmark", "cross_group", "conflict", tree.contains("-rw-") ? "rw" : "ww",
                    "sharedRows", 3L, "localRows", 3L, "otherRows", 20L));
        }
        o.put("execution", "interactive");
        o.put("roundTrips", "per-operation");
        Supplier<Workload> w = workload("micro", o);
        SimSeeds.Totals t = SimSeeds.run(w, SimSeeds.shippedTree(tree, w.get()), 500, 2, 6, 12);
        SimSeeds.assertClean("micro interactive " + tree, t, w.get().database().types().stream()
                .map(TxnType::name).toList(), 6 * 12 * 2);
    }
}
