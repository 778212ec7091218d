package org.tebaldi.cc.rp.analysis;

import static org.tebaldi.core.model.Catalog.doubleCol;
import static org.tebaldi.core.model.Catalog.longCol;
import static org.tebaldi.core.model.Catalog.stringCol;
import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;

/**
 * A TPC-C subset for the RP analysis tests (adapted from tebaldi-core's proc test catalog, benchbase table names):
 * new_order, payment and delivery as stored procedures, stock_level as an interactive type declaring its access
 * order [district, oorder, order_line, stock] (dissertation Fig 3.1). {@code item} is replicated. Delivery uses
 * a {@code d_next_deliv_o_id} pointer per district instead of scanning new_order (no range scans, docs/architecture.md, "Transactions").
 */
final class Tpcc {
    private Tpcc() {
    }

    static Catalog catalog() {
        Catalog c = new Catalog();
        c.add("warehouse", 1, 0, false, stringCol("w_name"), doubleCol("w_tax"), doubleCol("w_ytd"));
        c.add("district", 2, 0, false, stringCol("d_name"), doubleCol("d_tax"), doubleCol("d_ytd"),
                longCol("d_next_o_id"), longCol("d_next_deliv_o_id"));
        c.add("customer", 3, 0, false, doubleCol("c_balance"), stringCol("c_credit"), doubleCol("c_discount"),
                longCol("c_payment_cnt"), longCol("c_delivery_cnt"));
        c.add("history", 2, 0, false, longCol("h_c_id"), doubleCol("h_amount"), stringCol("h_data"));
        c.add("item", 1, -1, true, doubleCol("i_price"), stringCol("i_name"));
        c.add("stock", 2, 0, false, longCol("s_quantity"), longCol("s_ytd"), longCol("s_order_cnt"),
                longCol("s_remote_cnt"), stringCol("s_dist_info"));
        c.add("oorder", 3, 0, false, longCol("o_c_id"), longCol("o_ol_cnt"), longCol("o_all_local"),
                longCol("o_carrier_id"));
        c.add("new_order", 3, 0, false, longCol("no_dummy"));
        c.add("order_line", 4, 0, false, longCol("ol_i_id"), longCol("ol_supply_w_id"), longCol("ol_quantity"),
                doubleCol("ol_amount"), stringCol("ol_dist_info"), longCol("ol_delivery_d"));
        return c;
    }

    /** The database: new_order, payment, delivery procedures; stock_level interactive with its access order. */
    static Database database(Catalog c) {
        Database db = new Database(c);
        db.procedure(newOrder(c));
        db.procedure(payment(c));
        db.procedure(delivery(c));
        db.interactive("stock_level", true, List.of("district", "oorder", "order_line", "stock"),
                "w_id", "d_id", "threshold");
        db.interactive("order_status", true, "w_id", "d_id", "c_id");
        return db;
    }

    /** TPC-C §2.4: warehouse, district, customer, oorder, new_order, then per item: item, stock, order_line. */
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
                        l.let("total", add(local("total"), local("amount")));
                        l.write("order_line", row("ol_i_id", elem(in("item_ids"), local("i")),
                                        "ol_supply_w_id", local("sw"), "ol_quantity", local("q"),
                                        "ol_amount", local("amount"), "ol_dist_info", field("s", "s_dist_info")),
                                in("w_id"), in("d_id"), local("o_id"), add(local("i"), lit(1L)));
                    });
                    b.output("o_id", local("o_id"));
                    b.output("total", mul(local("total"), mul(sub(lit(1L), field("c", "c_discount")),
                            add(lit(1L), add(field("w", "w_tax"), field("d", "d_tax"))))));
                })
                .build();
    }

    /** TPC-C §2.5 (customer by id): warehouse and district ytd, customer balance, a history row. */
    static Procedure payment(Catalog cat) {
        return Procedure.define("payment", cat)
                .params("w_id", "d_id", "c_id", "h_amount", "h_id")
                .body(b -> {
                    b.update("warehouse", "w", List.of(set("w_ytd", add(col("w_ytd"), in("h_amount")))),
                            in("w_id"));
                    b.update("district", "d", List.of(set("d_ytd", add(col("d_ytd"), in("h_amount")))),
                            in("w_id"), in("d_id"));
                    b.read("customer", "c", in("w_id"), in("d_id"), in("c_id"));
                    b.abortIf(isNull(local("c")), "no such customer");
                    b.update("customer", null, List.of(set("c_balance", sub(col("c_balance"), in("h_amount"))),
                                    set("c_payment_cnt", add(col("c_payment_cnt"), lit(1L)))),
                            in("w_id"), in("d_id"), in("c_id"));
                    b.write("history", row("h_c_id", in("c_id"), "h_amount", in("h_amount"),
                                    "h_data", concat(field("w", "w_name"), lit("    "), field("d", "d_name"))),
                            in("w_id"), in("h_id"));
                    b.output("balance", sub(field("c", "c_balance"), in("h_amount")));
                })
                .build();
    }

    /**
     * TPC-C §2.7 for districts 1..{@code districts}: the oldest undelivered order (district's
     * {@code d_next_deliv_o_id}, if below {@code d_next_o_id}): read and delete its new_order row, set the
     * carrier, stamp its order lines summing their amounts, credit the customer, advance the pointer.
     */
    static Procedure delivery(Catalog cat) {
        return Procedure.define("delivery", cat)
                .params("w_id", "carrier_id", "date", "districts")
                .body(b -> {
                    b.newArray("delivered", in("districts"));
                    b.forRange("d", lit(1L), add(in("districts"), lit(1L)), 10, l -> {
                        l.read("district", "dist", in("w_id"), local("d"));
                        l.ifThen(lt(field("dist", "d_next_deliv_o_id"), field("dist", "d_next_o_id")), t -> {
                            t.let("o_id", field("dist", "d_next_deliv_o_id"));
                            t.read("new_order", "no", in("w_id"), local("d"), local("o_id"));
                            t.delete("new_order", in("w_id"), local("d"), local("o_id"));
                            t.update("oorder", "o", List.of(set("o_carrier_id", in("carrier_id"))),
                                    in("w_id"), local("d"), local("o_id"));
                            t.let("amount", lit(0.0));
                            t.forRange("ol", lit(1L), add(field("o", "o_ol_cnt"), lit(1L)), 15, m -> {
                                m.update("order_line", "line", List.of(set("ol_delivery_d", in("date"))),
                                        in("w_id"), local("d"), local("o_id"), local("ol"));
                                m.let("amount", add(local("amount"),
                                        cond(isNull(local("line")), lit(0.0), field("line", "ol_amount"))));
                            });
                            t.update("customer", null, List.of(set("c_balance", add(col("c_balance"), local("amount"))),
                                            set("c_delivery_cnt", add(col("c_delivery_cnt"), lit(1L)))),
                                    in("w_id"), local("d"), field("o", "o_c_id"));
                            t.update("district", null, List.of(set("d_next_deliv_o_id",
                                    add(col("d_next_deliv_o_id"), lit(1L)))), in("w_id"), local("d"));
                            t.setElem("delivered", sub(local("d"), lit(1L)),
                                    cond(isNull(local("no")), lit(-1L), local("o_id")));
                        });
                    });
                    b.output("delivered", local("delivered"));
                })
                .build();
    }
}
