package org.tebaldi.cc.rp.analysis;

import org.tebaldi.core.testkit.Pretty;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;

/**
 * TPC-C procedures reordered by their group's plan: accesses in step order (for nested groups, also in the
 * outer plan's order) and equivalent to the originals on random stores and inputs.
 */
class TpccReorderTest {
    private final Catalog cat = Tpcc.catalog();
    private final Database db = Tpcc.database(cat);

    private RpAnalysis.Result analyze(StepPlan outer, String... names) {
        return RpAnalysis.analyze(List.of(names).stream().map(db::type).toList(), cat, outer);
    }

    private static ToIntFunction<String> steps(StepPlan p) {
        return p::stepOf;
    }

    /** Runs every reordered procedure of {@code r} against its original; returns outcome counts per kind. */
    private Map<String, Integer> checkAll(RpAnalysis.Result r, StepPlan outer) {
        Random rnd = new Random(11);
        TpccData data = new TpccData(rnd, cat);
        Map<String, Supplier<Object[]>> inputs = Map.of("new_order", data::newOrder, "payment", data::payment,
                "delivery", data::delivery);
        Map<String, Integer> kinds = new HashMap<>();
        for (Map.Entry<String, Procedure> e : r.procedures().entrySet()) {
            Procedure original = db.type(e.getKey()).procedure();
            for (int i = 0; i < 300; i++) {
                String kind = outer == null
                        ? Check.equivalent(original, e.getValue(), data.store(), inputs.get(e.getKey()).get(),
                                steps(r.plan()))
                        : Check.equivalent(original, e.getValue(), data.store(), inputs.get(e.getKey()).get(),
                                steps(r.plan()), steps(outer));
                kinds.merge(e.getKey() + ":" + kind, 1, Integer::sum);
            }
        }
        return kinds;
    }

    @Test
    void newOrderInTheFinePipelineRunsItsItemLoopFirstThenStockThenOrderLines() {
        RpAnalysis.Result r = analyze(null, "new_order", "payment");
        String outline = Pretty.outline(r.procedure("new_order").body());
        assertTrue(outline.contains("for i { read item; if { abort }; let q; let sw; let amount; let total;"),
                outline);
        assertTrue(outline.endsWith("read warehouse; update district; let o_id; output o_id; read customer; "
                + "output total; write oorder; write new_order; "
                + "for i { readForUpdate stock; update stock; setElem s$13; setElem s$13$s_dist_info }; "
                + "for i { write order_line }"), outline);
        Map<String, Integer> kinds = checkAll(r, null);
        assertTrue(kinds.getOrDefault("new_order:DONE", 0) > 150, kinds.toString());
        assertTrue(kinds.getOrDefault("new_order:ABORT", 0) > 10, kinds.toString());
        assertTrue(kinds.getOrDefault("payment:ABORT", 0) > 10, kinds.toString());
    }

    @Test
    void withStockLevelStockAndOrderLineStayInterleavedInOneLoop() {
        RpAnalysis.Result r = analyze(null, "new_order", "payment", "stock_level");
        assertTrue(Pretty.outline(r.procedure("new_order").body())
                .endsWith("for i { readForUpdate stock; update stock; write order_line }"));
        checkAll(r, null);
    }

    @Test
    void deliveryIsSplitIntoOneDistrictLoopPerStep() {
        RpAnalysis.Result r = analyze(null, "new_order", "payment", "delivery");
        String outline = Pretty.outline(r.procedure("delivery").body());
        assertEquals(5, outline.split("for d \\{").length - 1, outline);
        assertTrue(outline.contains("for d { read district; let c$4; if { let o_id; update district }"), outline);
        Map<String, Integer> kinds = checkAll(r, null);
        assertTrue(kinds.getOrDefault("delivery:DONE", 0) > 200, kinds.toString());
    }

    @Test
    void nestedGroupsAreInStepOrderForTheirOwnAndTheOuterPlan() {
        StepPlan outer = analyze(null, "new_order", "payment", "delivery", "stock_level").plan();
        checkAll(analyze(outer, "new_order", "payment"), outer);
        checkAll(analyze(outer, "delivery"), outer);
        checkAll(analyze(outer, "new_order"), outer);
    }
}
