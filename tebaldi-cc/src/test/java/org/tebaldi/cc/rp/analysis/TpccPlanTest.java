package org.tebaldi.cc.rp.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.model.Catalog;

/** TPC-C table graphs and step plans (dissertation §3.1, Fig 3.1; §4.4.2), flat and nested. */
class TpccPlanTest {
    private final Catalog cat = Tpcc.catalog();
    private final Database db = Tpcc.database(cat);

    private List<TxnType> group(String... names) {
        return List.of(names).stream().map(db::type).toList();
    }

    private RpAnalysis.Result analyze(StepPlan outer, String... names) {
        return RpAnalysis.analyze(group(names), cat, outer);
    }

    @Test
    void newOrderAndPaymentGetAFinePipelineWithEveryTableItsOwnStep() {
        RpAnalysis.Result r = analyze(null, "new_order", "payment");
        assertEquals("warehouse -> history; district -> oorder, new_order, order_line, history; customer; oorder; "
                + "new_order; stock -> order_line; order_line; history", r.graph().describe());
        StepPlan p = r.plan();
        assertEquals("1:{warehouse} 2:{district} 3:{customer} 4:{oorder} 5:{new_order} 6:{stock} 7:{order_line} "
                + "8:{history}", p.describe());
        assertTrue(p.steps().stream().allMatch(s -> s.size() == 1));
        for (String t : List.of("oorder", "new_order", "order_line")) {
            assertTrue(p.stepOf("district") < p.stepOf(t), t);
        }
        assertTrue(p.stepOf("stock") < p.stepOf("order_line"));
        assertEquals(-1, p.stepOf("item"));
        assertEquals(Set.of("new_order", "payment"), r.procedures().keySet());
    }

    @Test
    void addingStockLevelMergesStockAndOrderLineIntoOneStep() {
        RpAnalysis.Result r = analyze(null, "new_order", "payment", "stock_level");
        assertTrue(r.graph().hasEdge("order_line", "stock"));
        assertTrue(r.graph().hasEdge("stock", "order_line"));
        StepPlan p = r.plan();
        assertEquals("1:{warehouse} 2:{district} 3:{customer} 4:{oorder} 5:{new_order} 6:{stock, order_line} "
                + "7:{history}", p.describe());
        assertEquals(p.stepOf("stock"), p.stepOf("order_line"));
        List<String> declared = db.type("stock_level").accessOrder();
        for (int i = 1; i < declared.size(); i++) {
            assertTrue(p.stepOf(declared.get(i - 1)) <= p.stepOf(declared.get(i)), declared.toString());
        }
        assertEquals(Set.of("new_order", "payment"), r.procedures().keySet());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> r.procedure("stock_level"));
        assertEquals("no stored procedure 'stock_level' in the group; procedures: [new_order, payment]",
                e.getMessage());
    }

    @Test
    void deliveryOrdersOorderBeforeNewOrderAndCustomerAfterTheOrderLines() {
        assertEquals("district -> new_order, oorder, order_line, customer; new_order; oorder -> order_line, "
                + "customer; order_line -> customer; customer", analyze(null, "delivery").graph().describe());
        assertEquals("1:{warehouse} 2:{district} 3:{oorder} 4:{new_order} 5:{stock} 6:{order_line} 7:{customer} "
                + "8:{history}", analyze(null, "new_order", "payment", "delivery").plan().describe());
        assertEquals("1:{warehouse} 2:{district} 3:{oorder} 4:{new_order} 5:{stock, order_line} 6:{customer} "
                + "7:{history}", analyze(null, "new_order", "payment", "delivery", "stock_level").plan().describe());
    }

    @Test
    void nestedPlansFollowTheOuterPlan() {
        StepPlan outer = analyze(null, "new_order", "payment", "delivery", "stock_level").plan();
        assertEquals("1:{district} 2:{new_order} 3:{oorder} 4:{order_line} 5:{customer}",
                analyze(null, "delivery").plan().describe());
        assertEquals("1:{district} 2:{oorder} 3:{new_order} 4:{order_line} 5:{customer}",
                analyze(outer, "delivery").plan().describe());
        List<List<String>> groups = List.of(List.of("new_order"), List.of("payment"), List.of("delivery"),
                List.of("stock_level"), List.of("new_order", "payment"), List.of("new_order", "stock_level"),
                List.of("payment", "delivery"));
        for (List<String> g : groups) {
            StepPlan inner = analyze(outer, g.toArray(String[]::new)).plan();
            for (Set<String> sa : inner.steps()) {
                for (String a : sa) {
                    for (Set<String> sb : inner.steps()) {
                        for (String b : sb) {
                            if (outer.stepOf(a) < outer.stepOf(b)) {
                                assertTrue(inner.stepOf(a) <= inner.stepOf(b), g + ": " + inner.describe());
                            }
                        }
                    }
                }
            }
        }
        StepPlan fine = analyze(outer, "new_order", "payment").plan();
        assertEquals("1:{warehouse} 2:{district} 3:{oorder} 4:{new_order} 5:{stock} 6:{order_line} 7:{customer} "
                + "8:{history}", fine.describe());
        assertNotEquals(analyze(null, "new_order", "payment").plan().describe(), fine.describe());
    }

    @Test
    void aGroupWhoseGraphContradictsTheOuterPlanIsRejected() {
        Database other = new Database(cat);
        other.interactive("backwards", false, List.of("order_line", "district"));
        StepPlan outer = RpAnalysis.analyze(other.types(), cat, null).plan();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> analyze(outer, "delivery"));
        assertTrue(e.getMessage().matches("table \\w+ is in no step of the outer plan 1:\\{order_line} 2:\\{district};.*"),
                e.getMessage());
        other.interactive("more", false, List.of("oorder", "new_order", "customer"));
        StepPlan outer2 = RpAnalysis.analyze(other.types(), cat, null).plan();
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> analyze(outer2, "delivery"));
        assertEquals("the group's table graph orders oorder before order_line (steps 2, 3 of 1:{district} 2:{oorder} "
                + "3:{order_line} 4:{new_order} 5:{customer}) but the outer plan puts order_line in step 1 before "
                + "oorder in step 3 (1:{order_line} 2:{district} 3:{oorder} 4:{new_order} 5:{customer}); a nested "
                + "group's table graph must be a subgraph of its ancestor's", e2.getMessage());
    }

    @Test
    void anInteractiveTypeWithoutAccessOrderCannotJoinAnRpGroup() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> analyze(null, "new_order", "order_status"));
        assertEquals("runtime pipelining needs the table access order of interactive type 'order_status'; declare "
                + "it with Database.interactive(name, readOnly, accessOrder, params...)", e.getMessage());
    }
}
