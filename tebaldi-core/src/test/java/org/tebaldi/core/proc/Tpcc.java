package org.tebaldi.core.proc;

import static org.tebaldi.core.model.Catalog.doubleCol;
import static org.tebaldi.core.model.Catalog.longCol;
import static org.tebaldi.core.model.Catalog.stringCol;

import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.ColumnType;
import org.tebaldi.core.testkit.TestStore;

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

    /** A store of {@code cat} (this class's catalog) loaded by {@link #loadNewOrder}. */
    static TestStore newOrderStore(Catalog cat) {
        TestStore s = new TestStore(cat);
        loadNewOrder(s);
        return s;
    }

    /**
     * Puts into {@code s} what the new_order tests read: warehouse 1, district (1, 3), customer (1, 3, 42), items
     * 10, 20 and 30, and their stock rows (item 30's at warehouse 2).
     */
    static void loadNewOrder(TestStore s) {
        s.put("warehouse", k(1), "w1", 0.25, 0.0);
        s.put("district", k(1, 3), 0.25, 0.0, 3001L);
        s.put("customer", k(1, 3, 42), 0.0, "GC", 0.5, 0L);
        s.put("item", k(10), 2.0, "ten");
        s.put("item", k(20), 3.0, "twenty");
        s.put("item", k(30), 1.5, "thirty");
        s.put("stock", k(1, 10), 50L, 0L, 0L, 0L);
        s.put("stock", k(1, 20), 12L, 5L, 1L, 0L);
        s.put("stock", k(2, 30), 40L, 0L, 0L, 0L);
    }
}
