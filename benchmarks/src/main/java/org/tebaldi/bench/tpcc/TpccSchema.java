package org.tebaldi.bench.tpcc;

import static org.tebaldi.core.model.Catalog.doubleCol;
import static org.tebaldi.core.model.Catalog.longCol;
import static org.tebaldi.core.model.Catalog.stringCol;

import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.TableSchema;

/**
 * The TPC-C tables (TPC-C §1.3) adapted to the key-value store (dissertation §4.6, docs/architecture.md, "Transactions"). Keys are tuples
 * of longs; every table except {@code item} and {@code item_stats} is partitioned by warehouse id (key part 0);
 * {@code item} is replicated and read-only. Money is a DOUBLE (dollars), dates are LONG (epoch milliseconds),
 * absent values (an undelivered order's carrier, an order line's delivery date) are null.
 *
 * <pre>
 * table                key (long parts)              columns
 * warehouse            (w_id)                        w_name w_street_1 w_street_2 w_city w_state w_zip w_tax w_ytd
 * district             (w_id, d_id)                  d_name d_street_1 d_street_2 d_city d_state d_zip d_tax d_ytd
 *                                                    d_next_o_id
 * district_deliv       (w_id, d_id)                  d_next_deliv_o_id
 * customer             (w_id, d_id, c_id)            c_first c_middle c_last c_street_1 c_street_2 c_city c_state
 *                                                    c_zip c_phone c_since c_credit c_credit_lim c_discount
 *                                                    c_balance c_ytd_payment c_payment_cnt c_delivery_cnt c_data
 * history              (c_w_id, c_d_id, c_id, h_seq) h_d_id h_w_id h_date h_amount h_data
 * oorder               (w_id, d_id, o_id)            o_c_id o_entry_d o_carrier_id o_ol_cnt o_all_local
 * new_order            (w_id, d_id, o_id)            (none)
 * order_line           (w_id, d_id, o_id, ol_number) ol_i_id ol_supply_w_id ol_delivery_d ol_quantity ol_amount
 *                                                    ol_dist_info
 * item      replicated (i_id)                        i_im_id i_name i_price i_data
 * stock                (w_id, i_id)                  s_quantity s_dist_01..s_dist_10 s_ytd s_order_cnt
 *                                                    s_remote_cnt s_data
 * customer_last_order  (w_id, d_id, c_id)            clo_o_id
 * item_stats           (i_id)                        is_count      (partitioned by i_id)
 * </pre>
 *
 * <p>Adaptations (dissertation §4.6): {@code customer_last_order} is the secondary index that locates a
 * customer's latest order (order_status, TPC-C §2.6.2.2 "largest O_ID"). {@code district_deliv} replaces the
 * delivery transaction's scan for the oldest {@code new_order} row (TPC-C §2.7.4.2): it holds the id of the
 * district's oldest undelivered order, which is the head of the district's contiguous {@code new_order} range
 * (consistency condition 3). It is a table of its own rather than a column of {@code district} so that delivery
 * does not lock the district rows that every new_order and payment updates: the dissertation (§4.6.1) relies on
 * new_order/delivery conflicts being rare. {@code history} is keyed by the paying customer plus {@code h_seq}, an
 * id unique per client ({@code clientIndex << 32 | counter}; 0 for loaded rows), since TPC-C history has no
 * primary key; {@code h_d_id}/{@code h_w_id} are the district and warehouse paid at. {@code item_stats} counts
 * item sales for {@code hot_item} (Fig 4.9). Table names follow benchbase ({@code oorder}).
 */
public final class TpccSchema {
    /** Table names (see the class doc). */
    public static final String WAREHOUSE = "warehouse";
    public static final String DISTRICT = "district";
    public static final String DISTRICT_DELIV = "district_deliv";
    public static final String CUSTOMER = "customer";
    public static final String HISTORY = "history";
    public static final String OORDER = "oorder";
    public static final String NEW_ORDER = "new_order";
    public static final String ORDER_LINE = "order_line";
    public static final String ITEM = "item";
    public static final String STOCK = "stock";
    public static final String CUSTOMER_LAST_ORDER = "customer_last_order";
    public static final String ITEM_STATS = "item_stats";

    private final Catalog catalog = new Catalog();
    private final TableSchema warehouse;
    private final TableSchema district;
    private final TableSchema districtDeliv;
    private final TableSchema customer;
    private final TableSchema history;
    private final TableSchema oorder;
    private final TableSchema newOrder;
    private final TableSchema orderLine;
    private final TableSchema item;
    private final TableSchema stock;
    private final TableSchema customerLastOrder;
    private final TableSchema itemStats;

    /** Builds the catalog; table ids are dense, in the order of the class doc. */
    public TpccSchema() {
        warehouse = catalog.add(WAREHOUSE, 1, 0, false, stringCol("w_name"), stringCol("w_street_1"),
                stringCol("w_street_2"), stringCol("w_city"), stringCol("w_state"), stringCol("w_zip"),
                doubleCol("w_tax"), doubleCol("w_ytd"));
        district = catalog.add(DISTRICT, 2, 0, false, stringCol("d_name"), stringCol("d_street_1"),
                stringCol("d_street_2"), stringCol("d_city"), stringCol("d_state"), stringCol("d_zip"),
                doubleCol("d_tax"), doubleCol("d_ytd"), longCol("d_next_o_id"));
        districtDeliv = catalog.add(DISTRICT_DELIV, 2, 0, false, longCol("d_next_deliv_o_id"));
        customer = catalog.add(CUSTOMER, 3, 0, false, stringCol("c_first"), stringCol("c_middle"),
                stringCol("c_last"), stringCol("c_street_1"), stringCol("c_street_2"), stringCol("c_city"),
                stringCol("c_state"), stringCol("c_zip"), stringCol("c_phone"), longCol("c_since"),
                stringCol("c_credit"), doubleCol("c_credit_lim"), doubleCol("c_discount"), doubleCol("c_balance"),
                doubleCol("c_ytd_payment"), longCol("c_payment_cnt"), longCol("c_delivery_cnt"),
                stringCol("c_data"));
        history = catalog.add(HISTORY, 4, 0, false, longCol("h_d_id"), longCol("h_w_id"), longCol("h_date"),
                doubleCol("h_amount"), stringCol("h_data"));
        oorder = catalog.add(OORDER, 3, 0, false, longCol("o_c_id"), longCol("o_entry_d"), longCol("o_carrier_id"),
                longCol("o_ol_cnt"), longCol("o_all_local"));
        newOrder = catalog.add(NEW_ORDER, 3, 0, false);
        orderLine = catalog.add(ORDER_LINE, 4, 0, false, longCol("ol_i_id"), longCol("ol_supply_w_id"),
                longCol("ol_delivery_d"), longCol("ol_quantity"), doubleCol("ol_amount"), stringCol("ol_dist_info"));
        item = catalog.add(ITEM, 1, -1, true, longCol("i_im_id"), stringCol("i_name"), doubleCol("i_price"),
                stringCol("i_data"));
        Column[] stockCols = new Column[4 + TpccConfig.DISTRICTS + 1];
        stockCols[0] = longCol("s_quantity");
        for (int d = 1; d <= TpccConfig.DISTRICTS; d++) {
            stockCols[d] = stringCol(distColumn(d));
        }
        stockCols[TpccConfig.DISTRICTS + 1] = longCol("s_ytd");
        stockCols[TpccConfig.DISTRICTS + 2] = longCol("s_order_cnt");
        stockCols[TpccConfig.DISTRICTS + 3] = longCol("s_remote_cnt");
        stockCols[TpccConfig.DISTRICTS + 4] = stringCol("s_data");
        stock = catalog.add(STOCK, 2, 0, false, stockCols);
        customerLastOrder = catalog.add(CUSTOMER_LAST_ORDER, 3, 0, false, longCol("clo_o_id"));
        itemStats = catalog.add(ITEM_STATS, 1, 0, false, longCol("is_count"));
    }

    /**
     * Name of the stock column holding district {@code d}'s distribution info: {@code s_dist_01} ..
     * {@code s_dist_10} (TPC-C §1.3.1).
     *
     * @throws IllegalArgumentException if {@code d} is not in 1..10
     */
    public static String distColumn(int d) {
        if (d < 1 || d > TpccConfig.DISTRICTS) {
            throw new IllegalArgumentException("district must be 1.." + TpccConfig.DISTRICTS + ", got " + d);
        }
        return d < 10 ? "s_dist_0" + d : "s_dist_" + d;
    }

    /** The catalog of all tables. */
    public Catalog catalog() {
        return catalog;
    }

    /** Table {@code warehouse}. */
    public TableSchema warehouse() {
        return warehouse;
    }

    /** Table {@code district}. */
    public TableSchema district() {
        return district;
    }

    /** Table {@code district_deliv}. */
    public TableSchema districtDeliv() {
        return districtDeliv;
    }

    /** Table {@code customer}. */
    public TableSchema customer() {
        return customer;
    }

    /** Table {@code history}. */
    public TableSchema history() {
        return history;
    }

    /** Table {@code oorder}. */
    public TableSchema oorder() {
        return oorder;
    }

    /** Table {@code new_order}. */
    public TableSchema newOrder() {
        return newOrder;
    }

    /** Table {@code order_line}. */
    public TableSchema orderLine() {
        return orderLine;
    }

    /** Table {@code item}. */
    public TableSchema item() {
        return item;
    }

    /** Table {@code stock}. */
    public TableSchema stock() {
        return stock;
    }

    /** Table {@code customer_last_order}. */
    public TableSchema customerLastOrder() {
        return customerLastOrder;
    }

    /** Table {@code item_stats}. */
    public TableSchema itemStats() {
        return itemStats;
    }
}
