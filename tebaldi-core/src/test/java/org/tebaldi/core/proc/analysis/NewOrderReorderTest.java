package org.tebaldi.core.proc.analysis;

import org.tebaldi.core.testkit.Pretty;
import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;

/** TPC-C new_order reordered for a pipeline, checked against the original on random orders. */
class NewOrderReorderTest {
    private final Catalog cat = Schema.tpcc();
    private final Procedure newOrder = Schema.newOrder(cat);

    static TestStore store(Catalog cat, Random rnd) {
        TestStore s = new TestStore(cat);
        for (long w = 1; w <= 2; w++) {
            s.put("warehouse", new long[] {w}, "w" + w, 0.1 * w, 0.0);
            for (long d = 1; d <= 2; d++) {
                s.put("district", new long[] {w, d}, 0.05, 0.0, 3000L + rnd.nextInt(5));
                for (long c = 1; c <= 3; c++) {
                    s.put("customer", new long[] {w, d, c}, 0.0, "GC", 0.1 * c);
                }
            }
            for (long i = 1; i <= 10; i++) {
                if (rnd.nextInt(20) > 0) {
                    s.put("stock", new long[] {w, i}, 5L + rnd.nextInt(90), 0L, 0L, 0L, "dist" + w + "-" + i);
                }
            }
        }
        for (long i = 1; i <= 8; i++) {
            s.put("item", new long[] {i}, 1.5 * i, "item" + i);
        }
        return s;
    }

    static Object[] inputs(Random rnd) {
        int n = rnd.nextInt(10) == 0 ? 16 : 1 + rnd.nextInt(15);
        long[] items = new long[n];
        long[] supply = new long[n];
        long[] qty = new long[n];
        for (int i = 0; i < n; i++) {
            items[i] = 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 9 : 8);
            supply[i] = rnd.nextInt(6) == 0 ? 2 : 1;
            qty[i] = 1 + rnd.nextInt(10);
        }
        return new Object[] {1L + rnd.nextInt(2), 1L + rnd.nextInt(2), 1L + rnd.nextInt(3), items, supply, qty};
    }

    private void checkEquivalent(Map<String, Integer> steps) {
        ToIntFunction<String> step = Schema.steps(steps);
        Procedure q = Reorderer.reorder(newOrder, step);
        Random rnd = new Random(3);
        Map<String, Integer> kinds = new HashMap<>();
        for (int i = 0; i < 500; i++) {
            TestStore.Outcome o = Equivalence.check(newOrder, q, step, store(cat, rnd), inputs(rnd));
            kinds.merge(o.kind(), 1, Integer::sum);
        }
        assertEquals(Set.of("DONE", "ABORT", "ERROR"), kinds.keySet(), kinds.toString());
        assertTrue(kinds.get("DONE") > 200, kinds.toString());
    }

    @Test
    void fineStepsSplitTheItemLoopIntoItemStockAndOrderLineLoops() {
        Map<String, Integer> steps = Map.of("warehouse", 1, "district", 2, "customer", 3, "oorder", 4,
                "new_order", 5, "stock", 6, "order_line", 7);
        Procedure q = Reorderer.reorder(newOrder, Schema.steps(steps));
        assertEquals("let n; let all_local; for j { if { let all_local } }; let total; newArray amounts; "
                + "let t$14; let n$14; newArray sw$14; newArray q$14; newArray amount$14; newArray s$14; "
                + "newArray s$14$s_dist_info; "
                + "for i { read item; if { abort }; let q; let sw; let amount; setElem amounts; let total; "
                + "setElem sw$14; setElem q$14; setElem amount$14 }; output amounts; "
                + "read warehouse; update district; let o_id; output o_id; read customer; output total; "
                + "write oorder; write new_order; "
                + "for i { readForUpdate stock; update stock; setElem s$14; setElem s$14$s_dist_info }; "
                + "for i { write order_line }", Pretty.outline(q.body()));
        checkEquivalent(steps);
    }

    @Test
    void stockAndOrderLineInOneStepKeepTheirInterleaving() {
        Map<String, Integer> steps = Map.of("warehouse", 0, "district", 1, "customer", 2, "oorder", 3,
                "new_order", 4, "stock", 5, "order_line", 5);
        Procedure q = Reorderer.reorder(newOrder, Schema.steps(steps));
        assertTrue(Pretty.outline(q.body()).endsWith(
                "for i { readForUpdate stock; update stock; write order_line }"), Pretty.outline(q.body()));
        checkEquivalent(steps);
    }
}
