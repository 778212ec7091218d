package org.tebaldi.core.proc.analysis;

import static org.tebaldi.core.model.Catalog.doubleCol;
import static org.tebaldi.core.model.Catalog.longCol;
import static org.tebaldi.core.model.Catalog.stringCol;
import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;

/**
 * Catalogs and procedures for the analysis tests: four generic tables {@code a, b, c, d} (key: one long; columns
 * {@code v} long, {@code w} long) plus a replicated {@code r}, and a TPC-C subset with a new_order procedure
 * whose order lines carry the stock's district info (so order_line depends on stock).
 */
final class Schema {
    private Schema() {
    }

    static Catalog abcd() {
        Catalog c = new Catalog();
        for (String t : List.of("a", "b", "c", "d")) {
            c.add(t, 1, 0, false, longCol("v"), longCol("w"));
        }
        c.add("r", 1, -1, true, longCol("v"), longCol("w"));
        return c;
    }

    /** Steps from a map; absent tables are "any step". */
    static ToIntFunction<String> steps(Map<String, Integer> m) {
        return t -> m.getOrDefault(t, -1);
    }

    static Catalog tpcc() {
        Catalog c = new Catalog();
        c.add("warehouse", 1, 0, false, stringCol("w_name"), doubleCol("w_tax"), doubleCol("w_ytd"));
        c.add("district", 2, 0, false, doubleCol("d_tax"), doubleCol("d_ytd"), longCol("d_next_o_id"));
        c.add("customer", 3, 0, false, doubleCol("c_balance"), stringCol("c_credit"), doubleCol("c_discount"));
        c.add("item", 1, -1, true, doubleCol("i_price"), stringCol("i_name"));
        c.add("stock", 2, 0, false, longCol("s_quantity"), longCol("s_ytd"), longCol("s_order_cnt"),
                longCol("s_remote_cnt"), stringCol("s_dist_info"));
        c.add("oorder", 3, 0, false, longCol("o_c_id"), longCol("o_ol_cnt"), longCol("o_all_local"));
        c.add("new_order", 3, 0, false, longCol("no_dummy"));
        c.add("order_line", 4, 0, false, longCol("ol_i_id"), longCol("ol_supply_w_id"), longCol("ol_quantity"),
                doubleCol("ol_amount"), stringCol("ol_dist_info"));
        return c;
    }

    /** TPC-C new_order (spec §2.4.2 order): warehouse, district, customer, oorder, new_order, then per item. */
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
                    b.forRange("j", lit(0L), local("n"), 15, l -> l.ifThen(
                            ne(elem(in("supply_w_ids"), local("j")), in("w_id")), t -> t.let("all_local", lit(0L))));
                    b.write("oorder", row("o_c_id", in("c_id"), "o_ol_cnt", local("n"), "o_all_local",
                            local("all_local")), in("w_id"), in("d_id"), local("o_id"));
                    b.write("new_order", row("no_dummy", lit(0L)), in("w_id"), in("d_id"), local("o_id"));
                    b.let("total", lit(0.0));
                    b.newArray("amounts", local("n"));
                    b.forRange("i", lit(0L), local("n"), 15, l -> {
                        l.read("item", "it", elem(in("item_ids"), local("i")));
                        l.abortIf(isNull(local("it")), "invalid item");
                        l.let("q", elem(in("quantities"), local("i")));
                        l.let("sw", elem(in("supply_w_ids"), local("i")));
                        l.readForUpdate("stock", "s", local("sw"), elem(in("item_ids"), local("i")));
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
                                        "ol_amount", local("amount"), "ol_dist_info", field("s", "s_dist_info")),
                                in("w_id"), in("d_id"), local("o_id"), add(local("i"), lit(1L)));
                    });
                    b.output("o_id", local("o_id"));
                    b.output("amounts", local("amounts"));
                    b.output("total", mul(local("total"), mul(sub(lit(1L), field("c", "c_discount")),
                            add(lit(1L), add(field("w", "w_tax"), field("d", "d_tax"))))));
                })
                .build();
    }
}
