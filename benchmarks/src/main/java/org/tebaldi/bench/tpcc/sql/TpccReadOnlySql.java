package org.tebaldi.bench.tpcc.sql;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.tebaldi.bench.tpcc.StockLevel;
import org.tebaldi.bench.workload.sql.SqlSession;
import org.tebaldi.core.txn.Inputs;

/**
 * The interactive read-only TPC-C transactions in SQL, issued statement by statement from the client like the
 * Tebaldi bodies {@link org.tebaldi.bench.tpcc.OrderStatus} and {@link StockLevel}, with the same inputs, the same
 * rows read and the same checks (a missing order or line fails with {@link IllegalStateException}: a serializable
 * execution never produces one).
 *
 * <ul>
 *   <li>order_status (w, d, c): the customer's balance, its latest order id from {@code customer_last_order}, that
 *       order, and its lines in ol_number order (one query for the lines instead of one read each).</li>
 *   <li>stock_level (w, d, threshold): the district's {@code d_next_o_id}, the last 20 orders (their count and line
 *       counts), then their lines joined with the home warehouse's stock: the line count and the number of distinct
 *       items with {@code s_quantity} below the threshold.</li>
 * </ul>
 */
final class TpccReadOnlySql {
    private TpccReadOnlySql() {
    }

    private static final String OS_CUSTOMER = "SELECT c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? "
            + "AND c_id = ?";
    private static final String OS_LAST_ORDER = "SELECT clo_o_id FROM customer_last_order WHERE clo_w_id = ? "
            + "AND clo_d_id = ? AND clo_c_id = ?";
    private static final String OS_ORDER = "SELECT o_c_id, o_ol_cnt, o_carrier_id FROM oorder WHERE o_w_id = ? "
            + "AND o_d_id = ? AND o_id = ?";
    private static final String OS_LINES = "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d "
            + "FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ? ORDER BY ol_number";
    private static final String SL_DISTRICT = "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";
    private static final String SL_ORDERS = "SELECT count(*), coalesce(sum(o_ol_cnt), 0) FROM oorder "
            + "WHERE o_w_id = ? AND o_d_id = ? AND o_id >= ? AND o_id < ?";
    private static final String SL_STOCK = "SELECT count(*), count(DISTINCT s_i_id) FILTER (WHERE s_quantity < ?) "
            + "FROM order_line JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id "
            + "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id >= ? AND ol_o_id < ?";

    /** order_status; outputs {@code c_balance}, {@code o_id} (0 if none), {@code lines}. */
    static Map<String, Object> orderStatus(SqlSession s, Inputs in) throws SQLException {
        long w = in.getLong(0);
        long d = in.getLong(1);
        long c = in.getLong(2);
        double balance;
        try (ResultSet r = query(s, OS_CUSTOMER, w, d, c)) {
            if (!r.next()) {
                throw new IllegalStateException("order_status: no customer (" + w + ", " + d + ", " + c + ")");
            }
            balance = r.getDouble(1);
        }
        long oId;
        try (ResultSet r = query(s, OS_LAST_ORDER, w, d, c)) {
            if (!r.next()) {
                return Map.of("c_balance", balance, "o_id", 0L, "lines", 0L);
            }
            oId = r.getLong(1);
        }
        long cnt;
        try (ResultSet r = query(s, OS_ORDER, w, d, oId)) {
            if (!r.next() || r.getLong(1) != c) {
                throw new IllegalStateException("order_status: customer_last_order (" + w + ", " + d + ", " + c
                        + ") = " + oId + " but that order is missing or another customer's");
            }
            cnt = r.getLong(2);
        }
        long lines = 0;
        try (ResultSet r = query(s, OS_LINES, w, d, oId)) {
            while (r.next()) {
                lines++;
            }
        }
        if (lines != cnt) {
            throw new IllegalStateException("order_status: order (" + w + ", " + d + ", " + oId + ") has o_ol_cnt "
                    + cnt + " but " + lines + " lines");
        }
        return Map.of("c_balance", balance, "o_id", oId, "lines", lines);
    }

    /** stock_level; output {@code low_stock} (distinct items below the threshold). */
    static Map<String, Object> stockLevel(SqlSession s, Inputs in) throws SQLException {
        long w = in.getLong(0);
        long d = in.getLong(1);
        long threshold = in.getLong(2);
        long next;
        try (ResultSet r = query(s, SL_DISTRICT, w, d)) {
            if (!r.next()) {
                throw new IllegalStateException("stock_level: no district (" + w + ", " + d + ")");
            }
            next = r.getLong(1);
        }
        long first = Math.max(1, next - StockLevel.ORDERS);
        long olCnt;
        try (ResultSet r = query(s, SL_ORDERS, w, d, first, next)) {
            r.next();
            if (r.getLong(1) != next - first) {
                throw new IllegalStateException("stock_level: d_next_o_id of (" + w + ", " + d + ") is " + next
                        + " but only " + r.getLong(1) + " of orders " + first + ".." + (next - 1) + " exist");
            }
            olCnt = r.getLong(2);
        }
        try (ResultSet r = query(s, SL_STOCK, threshold, w, d, first, next)) {
            r.next();
            if (r.getLong(1) != olCnt) {
                throw new IllegalStateException("stock_level: orders " + first + ".." + (next - 1) + " of (" + w
                        + ", " + d + ") have " + olCnt + " lines by o_ol_cnt but " + r.getLong(1)
                        + " lines with stock");
            }
            return Map.of("low_stock", r.getLong(2));
        }
    }

    private static ResultSet query(SqlSession s, String sql, long... args) throws SQLException {
        PreparedStatement ps = s.prepare(sql);
        for (int i = 0; i < args.length; i++) {
            ps.setLong(i + 1, args[i]);
        }
        return ps.executeQuery();
    }
}
