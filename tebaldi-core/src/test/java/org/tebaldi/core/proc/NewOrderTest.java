package org.tebaldi.core.proc;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.tebaldi.core.proc.Exprs.*;
import static org.tebaldi.core.proc.Tpcc.k;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.txn.OpKind;

/** A TPC-C new_order-like procedure (and the payment example of the Procedure docs) end to end. */
class NewOrderTest {
    private final Catalog cat = Tpcc.catalog();
    private final TestStore store = new TestStore(cat);

    static Procedure newOrder(Catalog cat) {
        return Procedure.define("new_order", cat)
                .params("w_id", "d_id", "c_id", "item_ids", "supply_w_ids", "quantities")
                .body(b -> {
                    b.read("warehouse", "w", in("w_id"));
                    b.update("district", "d", List.of(set("d_next_o_id", add(col("d_next_o_id"), lit(1L)))),
                            in("w_id"), in("d_id"));
                    b.let("o_id", sub(field("d", "d_next_o_id"), lit(1L)));
                    b.read("customer", "c", in("w_id"), in("d_id"), in("c_id"));
                    b.let("n", len(in("item_ids")));
                    b.let("all_local", lit(1L));
                    b.let("total", lit(0.0));
                    b.newArray("amounts", local("n"));
                    b.forRange("i", lit(0L), local("n"), 15, l -> {
                        l.read("item", "it", elem(in("item_ids"), local("i")));
                        l.abortIf(isNull(local("it")), "invalid item");
                        l.let("q", elem(in("quantities"), local("i")));
                        l.let("sw", elem(in("supply_w_ids"), local("i")));
                        l.ifThen(ne(local("sw"), in("w_id")), t -> t.let("all_local", lit(0L)));
                        l.update("stock", null, List.of(
                                set("s_quantity", cond(ge(sub(col("s_quantity"), local("q")), lit(10L)),
                                        sub(col("s_quantity"), local("q")),
                                        add(sub(col("s_quantity"), local("q")), lit(91L)))),
                                set("s_ytd", add(col("s_ytd"), local("q"))),
                                set("s_order_cnt", add(col("s_order_cnt"), lit(1L))),
                                set("s_remote_cnt", add(col("s_remote_cnt"),
                                        cond(eq(local("sw"), in("w_id")), lit(0L), lit(1L))))),
                                local("sw"), elem(in("item_ids"), local("i")));
                        l.let("amount", mul(local("q"), field("it", "i_price")));
                        l.setElem("amounts", local("i"), local("amount"));
                        l.let("total", add(local("total"), local("amount")));
                        l.write("order_line", row("ol_i_id", elem(in("item_ids"), local("i")),
                                        "ol_supply_w_id", local("sw"), "ol_quantity", local("q"),
                                        "ol_amount", local("amount")),
                                in("w_id"), in("d_id"), local("o_id"), add(local("i"), lit(1L)));
                    });
                    b.write("orders", row("o_c_id", in("c_id"), "o_ol_cnt", local("n"), "o_all_local",
                            local("all_local")), in("w_id"), in("d_id"), local("o_id"));
                    b.write("new_order", row(), in("w_id"), in("d_id"), local("o_id"));
                    b.output("o_id", local("o_id"));
                    b.output("amounts", local("amounts"));
                    b.output("total", mul(local("total"), mul(sub(lit(1L), field("c", "c_discount")),
                            add(lit(1L), add(field("w", "w_tax"), field("d", "d_tax"))))));
                })
                .build();
    }

    @BeforeEach
    void load() {
        Tpcc.loadNewOrder(store);
    }

    @Test
    void newOrderUpdatesStockWritesLinesOrderAndNewOrder() {
        Map<String, Object> out = store.outputs(newOrder(cat), 1L, 3L, 42L,
                new long[] {10, 20, 30}, new long[] {1, 1, 2}, new long[] {5, 4, 2});

        assertEquals(3001L, out.get("o_id"));
        assertEquals(List.of(10.0, 12.0, 3.0), List.of((Object[]) out.get("amounts")));
        assertEquals(25.0 * 0.5 * 1.5, (Double) out.get("total"), 1e-9);

        assertEquals(3002L, store.get("district", 1, 3).get("d_next_o_id"));
        assertEquals(cat.table("stock").row(45L, 5L, 1L, 0L), store.get("stock", 1, 10));
        assertEquals(cat.table("stock").row(99L, 9L, 2L, 0L), store.get("stock", 1, 20));
        assertEquals(cat.table("stock").row(38L, 2L, 1L, 1L), store.get("stock", 2, 30));
        assertEquals(cat.table("order_line").row(20L, 1L, 4L, 12.0), store.get("order_line", 1, 3, 3001, 2));
        assertEquals(cat.table("order_line").row(30L, 2L, 2L, 3.0), store.get("order_line", 1, 3, 3001, 3));
        assertEquals(cat.table("orders").row(42L, 3L, 0L), store.get("orders", 1, 3, 3001));
        assertNotNull(store.get("new_order", 1, 3, 3001));

        assertEquals(3 + 3 * 3 + 2, store.ops.size());
        assertEquals(List.of(OpKind.READ, OpKind.UPDATE, OpKind.READ, OpKind.READ, OpKind.UPDATE, OpKind.WRITE),
                store.ops.subList(0, 6).stream().map(o -> o.kind()).toList());
    }

    @Test
    void invalidItemAbortsAfterTheEarlierLines() {
        ProcStep s = store.drive(newOrder(cat), 1L, 3L, 42L,
                new long[] {10, 99}, new long[] {1, 1}, new long[] {1, 1});
        assertEquals(new ProcStep.Abort("invalid item"), s);
        assertEquals(3 + 3 + 1, store.ops.size());
        assertNotNull(store.get("order_line", 1, 3, 3001, 1));
        assertNull(store.get("orders", 1, 3, 3001));
    }

    @Test
    void moreThanFifteenItemsIsARuntimeError() {
        long[] many = new long[16];
        ProcedureException e = assertThrows(ProcedureException.class,
                () -> store.drive(newOrder(cat), 1L, 3L, 42L, many, many, many));
        assertEquals("new_order: statement 9 (for i): range 0..16 is 16 iterations, more than maxIterations 15",
                e.getMessage());
    }

    @Test
    void theDocumentedPaymentExampleBuildsAndRuns() {
        Procedure payment = Procedure.define("payment", cat)
                .params("w_id", "d_id", "c_id", "h_amount", "item_ids", "h_id")
                .body(b -> {
                    b.update("warehouse", "w", List.of(set("w_ytd", add(col("w_ytd"), in("h_amount")))), in("w_id"));
                    b.read("customer", "c", in("w_id"), in("d_id"), in("c_id"));
                    b.abortIf(isNull(local("c")), "no such customer");
                    b.ifThenElse(eq(field("c", "c_credit"), lit("BC")),
                        t -> t.update("customer", null,
                                List.of(set("c_balance", sub(col("c_balance"), in("h_amount")))),
                                in("w_id"), in("d_id"), in("c_id")),
                        e -> e.let("x", lit(1L)));
                    b.newArray("qty", len(in("item_ids")));
                    b.forRange("i", lit(0L), len(in("item_ids")), 15, body -> {
                        body.read("stock", "s", in("w_id"), elem(in("item_ids"), local("i")));
                        body.setElem("qty", local("i"), field("s", "s_quantity"));
                    });
                    b.write("history", row("h_c_id", in("c_id"), "h_amount", in("h_amount")), in("w_id"), in("h_id"));
                    b.output("balance", field("c", "c_balance"));
                })
                .build();
        store.put("customer", k(1, 3, 7), 100.0, "BC", 0.0, 0L);

        Map<String, Object> out = store.outputs(payment, 1L, 3L, 7L, 25.0, new long[] {10, 20}, 900L);

        assertEquals(100.0, out.get("balance"));
        assertEquals(75.0, store.get("customer", 1, 3, 7).get("c_balance"));
        assertEquals(25.0, store.get("warehouse", 1).get("w_ytd"));
        assertEquals(cat.table("history").row(7L, 25.0, null), store.get("history", 1, 900));
        assertEquals(new ProcStep.Abort("no such customer"),
                store.drive(payment, 1L, 3L, 8L, 1.0, new long[0], 901L));
    }
}
