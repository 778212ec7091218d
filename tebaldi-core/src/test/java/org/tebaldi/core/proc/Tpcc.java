package org.tebaldi.core.proc;

import static org.tebaldi.core.model.Catalog.doubleCol;
import static org.tebaldi.core.model.Catalog.longCol;
import static org.tebaldi.core.model.Catalog.stringCol;

import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.ColumnType;

/** A TPC-C-like catalog (subset of columns) plus a generic {@code kv} table, for the procedure tests. */
final class Tpcc {
    private Tpcc() {
    }

    static Catalog catalog() {
        Catalog c = new Catalog();
        c.add("warehouse", 1, 0, false, stringCol("w_name"), doubleCol("w_tax"), doubleCol("w_ytd"));
        c.add("district", 2, 0, false, doubleCol("d_tax"), doubleCol("d_ytd"), longCol("d_next_o_id"));
        c.add("customer", 3, 0, false, doubleCol("c_balance"), stringCol("c_credit"), doubleCol("c_discount"),
                longCol("c_payment_cnt"));
        c.add("history", 2, 0, false, longCol("h_c_id"), doubleCol("h_amount"), stringCol("h_data"));
        c.add("item", 1, -1, true, doubleCol("i_price"), stringCol("i_name"));
        c.add("stock", 2, 0, false, longCol("s_quantity"), longCol("s_ytd"), longCol("s_order_cnt"),
                longCol("s_remote_cnt"));
        c.add("orders", 3, 0, false, longCol("o_c_id"), longCol("o_ol_cnt"), longCol("o_all_local"));
        c.add("new_order", 3, 0, false, longCol("no_dummy"));
        c.add("order_line", 4, 0, false, longCol("ol_i_id"), longCol("ol_supply_w_id"), longCol("ol_quantity"),
                doubleCol("ol_amount"));
        c.add("kv", 1, 0, false, longCol("v"), doubleCol("d"), stringCol("s"), new Column("b", ColumnType.BYTES));
        return c;
    }

    static long[] k(long... parts) {
        return parts;
    }
}
