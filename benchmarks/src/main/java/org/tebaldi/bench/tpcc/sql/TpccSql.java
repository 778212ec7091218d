package org.tebaldi.bench.tpcc.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.tpcc.Delivery;
import org.tebaldi.bench.tpcc.HotItem;
import org.tebaldi.bench.tpcc.NewOrder;
import org.tebaldi.bench.tpcc.OrderStatus;
import org.tebaldi.bench.tpcc.Payment;
import org.tebaldi.bench.tpcc.StockLevel;
import org.tebaldi.bench.tpcc.TpccConfig;
import org.tebaldi.bench.tpcc.TpccMix;
import org.tebaldi.bench.tpcc.TpccSchema;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.sql.SqlCalls;
import org.tebaldi.bench.workload.sql.SqlSession;
import org.tebaldi.bench.workload.sql.SqlTxn;
import org.tebaldi.bench.workload.sql.SqlWorkload;
import org.tebaldi.core.txn.Inputs;

/**
 * TPC-C in SQL (PostgreSQL dialect), the same adaptation as the Tebaldi version (dissertation §4.6, see
 * {@link TpccSchema}): the same tables (key columns named after benchbase: {@code d_w_id, d_id}, {@code o_w_id,
 * o_d_id, o_id}, ...), loaded from the same loader; new_order, payment, delivery and hot_item as stored functions
 * called in one statement ({@link TpccFunctions}); order_status and stock_level as client-issued read-only
 * transactions ({@link TpccReadOnlySql}); the consistency conditions 1–4 and the adaptation's invariants as SQL
 * queries ({@link TpccSqlConsistency}). Client sessions plan every statement with index scans
 * ({@link #sessionSetup()}), so SERIALIZABLE's predicate locks stay on rows and index pages.
 */
public final class TpccSql implements SqlWorkload {
    private static final Map<String, List<String>> KEYS = keys();

    private final TpccConfig cfg;
    private final Map<String, SqlTxn> txns = new LinkedHashMap<>();

    /** The SQL implementation for a TPC-C configuration (its mix decides whether hot_item exists). */
    public TpccSql(TpccConfig cfg) {
        this.cfg = cfg;
        txns.put(NewOrder.NAME, SqlTxn.procedure(TpccSql::newOrder));
        txns.put(Payment.NAME, SqlTxn.procedure((s, in) -> Map.of("c_balance",
                SqlCalls.scalar(s, TpccFunctions.CALL_PAYMENT, in))));
        txns.put(Delivery.NAME, SqlTxn.procedure((s, in) -> Map.of("delivered",
                SqlCalls.scalar(s, TpccFunctions.CALL_DELIVERY, in))));
        txns.put(OrderStatus.NAME, SqlTxn.readOnly(TpccReadOnlySql::orderStatus));
        txns.put(StockLevel.NAME, SqlTxn.readOnly(TpccReadOnlySql::stockLevel));
        if (cfg.mix() == TpccMix.HOT_ITEM) {
            txns.put(HotItem.NAME, SqlTxn.procedure((s, in) -> Map.of("o_id",
                    SqlCalls.scalar(s, TpccFunctions.CALL_HOT_ITEM, in))));
        }
    }

    private static Map<String, List<String>> keys() {
        Map<String, List<String>> k = new LinkedHashMap<>();
        k.put(TpccSchema.WAREHOUSE, List.of("w_id"));
        k.put(TpccSchema.DISTRICT, List.of("d_w_id", "d_id"));
        k.put(TpccSchema.DISTRICT_DELIV, List.of("dd_w_id", "dd_d_id"));
        k.put(TpccSchema.CUSTOMER, List.of("c_w_id", "c_d_id", "c_id"));
        k.put(TpccSchema.HISTORY, List.of("h_c_w_id", "h_c_d_id", "h_c_id", "h_seq"));
        k.put(TpccSchema.OORDER, List.of("o_w_id", "o_d_id", "o_id"));
        k.put(TpccSchema.NEW_ORDER, List.of("no_w_id", "no_d_id", "no_o_id"));
        k.put(TpccSchema.ORDER_LINE, List.of("ol_w_id", "ol_d_id", "ol_o_id", "ol_number"));
        k.put(TpccSchema.ITEM, List.of("i_id"));
        k.put(TpccSchema.STOCK, List.of("s_w_id", "s_i_id"));
        k.put(TpccSchema.CUSTOMER_LAST_ORDER, List.of("clo_w_id", "clo_d_id", "clo_c_id"));
        k.put(TpccSchema.ITEM_STATS, List.of("is_i_id"));
        return Map.copyOf(k);
    }

    @Override
    public Map<String, List<String>> keyColumns() {
        return KEYS;
    }

    @Override
    public List<String> setup() {
        return new ArrayList<>(TpccFunctions.create(cfg.mix() == TpccMix.HOT_ITEM));
    }

    /**
     * {@code SET enable_seqscan = off}: every statement reads through an index. Under SERIALIZABLE a sequential
     * scan takes a predicate lock on the whole table, and the planner prefers one for the small warehouse (10 rows
     * at 10 warehouses), district and district_deliv (100 rows) tables; every new_order, payment, delivery and
     * stock_level then read/write-conflicted with every concurrent writer of those tables, whichever warehouse it
     * served, and 20–25% of attempts failed serialization at 4 clients on 4 different warehouses. Through an index
     * the locks are on the rows and index pages read, so transactions of different warehouses no longer conflict.
     */
    @Override
    public List<String> sessionSetup() {
        return List.of("SET enable_seqscan = off");
    }

    @Override
    public SqlTxn txn(String type) {
        SqlTxn t = txns.get(type);
        if (t == null) {
            throw new IllegalArgumentException("TPC-C (mix " + cfg.mix() + ") has no transaction type '" + type
                    + "'; types: " + txns.keySet());
        }
        return t;
    }

    @Override
    public ConsistencyResult check(Connection c) throws SQLException {
        return TpccSqlConsistency.check(c);
    }

    private static Map<String, Object> newOrder(SqlSession s, Inputs in) throws SQLException {
        PreparedStatement ps = s.prepare(TpccFunctions.CALL_NEW_ORDER);
        ps.setLong(1, in.getLong(0));
        ps.setLong(2, in.getLong(1));
        ps.setLong(3, in.getLong(2));
        ps.setObject(4, (long[]) in.get(3));
        ps.setObject(5, (long[]) in.get(4));
        ps.setObject(6, (long[]) in.get(5));
        ps.setLong(7, in.getLong(6));
        try (ResultSet r = ps.executeQuery()) {
            r.next();
            return Map.of("o_id", r.getLong(1), "total", r.getDouble(2));
        }
    }
}
