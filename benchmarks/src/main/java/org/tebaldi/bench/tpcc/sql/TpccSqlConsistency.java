package org.tebaldi.bench.tpcc.sql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.bench.tpcc.ConsistencyReport.Check;
import org.tebaldi.bench.tpcc.TpccConsistency;
import org.tebaldi.bench.workload.ConsistencyResult;

/**
 * The TPC-C consistency conditions 1–4 (TPC-C §3.3.2.1–§3.3.2.4) and the key-value adaptation's invariants, checked
 * on a SQL database with aggregate queries: the same checks, wording and tolerance (half a cent) as
 * {@link TpccConsistency} on a Tebaldi cluster's final state.
 *
 * <ol>
 *   <li>W_YTD = sum(D_YTD) per warehouse;</li>
 *   <li>D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) per district;</li>
 *   <li>max(NO_O_ID) - min(NO_O_ID) + 1 = number of new_order rows per district;</li>
 *   <li>sum(O_OL_CNT) = number of order_line rows per district;</li>
 *   <li>adaptation: district_deliv's cursor = min(NO_O_ID) (D_NEXT_O_ID without new orders); every
 *       customer_last_order row names the customer's latest order and every customer with an order has one.</li>
 * </ol>
 */
final class TpccSqlConsistency {
    private static final int MAX_PROBLEMS = 100;

    /** Per-district aggregates, keyed by (w, d). */
    private static final class Dist {
        boolean exists;
        long nextOId;
        long cursor = Long.MIN_VALUE;
        long orders;
        long maxOId;
        long sumOlCnt;
        long newOrders;
        long noMin;
        long noMax;
        long lines;
    }

    private final Map<Check, Long> counts = new EnumMap<>(Check.class);
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Long> scanned = new TreeMap<>();

    private TpccSqlConsistency() {
    }

    /** Runs every check on {@code c} (search path set to the TPC-C schema), ideally in one snapshot. */
    static ConsistencyResult check(Connection c) throws SQLException {
        TpccSqlConsistency x = new TpccSqlConsistency();
        try (Statement st = c.createStatement()) {
            x.warehouses(st);
            x.districts(st);
            x.lastOrderIndex(st);
        }
        return x.result();
    }

    private void add(Check check, String where, String detail) {
        counts.merge(check, 1L, Long::sum);
        if (problems.size() < MAX_PROBLEMS) {
            String cond = check.condition() > 0 ? "condition " + check.condition() + " " : "";
            problems.add(cond + check + " at " + where + ": " + detail);
        }
    }

    private void warehouses(Statement st) throws SQLException {
        try (ResultSet r = st.executeQuery("SELECT coalesce(w.w_id, d.d_w_id), w.w_ytd, coalesce(d.s, 0), "
                + "coalesce(d.n, 0) FROM warehouse w FULL JOIN (SELECT d_w_id, sum(d_ytd) AS s, count(*) AS n "
                + "FROM district GROUP BY d_w_id) d ON d.d_w_id = w.w_id ORDER BY 1")) {
            long n = 0;
            while (r.next()) {
                long w = r.getLong(1);
                double ytd = r.getDouble(2);
                boolean noWarehouse = r.wasNull();
                double sum = r.getDouble(3);
                long districts = r.getLong(4);
                if (noWarehouse) {
                    add(Check.WAREHOUSE_YTD, "warehouse " + w, String.format(Locale.ROOT,
                            "no warehouse row but %d districts with sum(D_YTD) = %.2f", districts, sum));
                    continue;
                }
                n++;
                if (Math.abs(ytd - sum) > TpccConsistency.MONEY_TOLERANCE) {
                    add(Check.WAREHOUSE_YTD, "warehouse " + w, String.format(Locale.ROOT,
                            "W_YTD = %.2f but sum(D_YTD) = %.2f over %d districts", ytd, sum, districts));
                }
            }
            scanned.put("warehouse", n);
        }
    }

    private void districts(Statement st) throws SQLException {
        Map<List<Long>, Dist> ds = new TreeMap<>((a, b) -> a.get(0).equals(b.get(0))
                ? Long.compare(a.get(1), b.get(1)) : Long.compare(a.get(0), b.get(0)));
        try (ResultSet r = st.executeQuery("SELECT d_w_id, d_id, d_next_o_id FROM district")) {
            while (r.next()) {
                Dist d = ds.computeIfAbsent(List.of(r.getLong(1), r.getLong(2)), k -> new Dist());
                d.exists = true;
                d.nextOId = r.getLong(3);
            }
        }
        try (ResultSet r = st.executeQuery("SELECT dd_w_id, dd_d_id, d_next_deliv_o_id FROM district_deliv")) {
            while (r.next()) {
                ds.computeIfAbsent(List.of(r.getLong(1), r.getLong(2)), k -> new Dist()).cursor = r.getLong(3);
            }
        }
        try (ResultSet r = st.executeQuery("SELECT o_w_id, o_d_id, count(*), max(o_id), sum(o_ol_cnt) FROM oorder "
                + "GROUP BY o_w_id, o_d_id")) {
            while (r.next()) {
                Dist d = ds.computeIfAbsent(List.of(r.getLong(1), r.getLong(2)), k -> new Dist());
                d.orders = r.getLong(3);
                d.maxOId = r.getLong(4);
                d.sumOlCnt = r.getLong(5);
            }
        }
        try (ResultSet r = st.executeQuery("SELECT no_w_id, no_d_id, count(*), min(no_o_id), max(no_o_id) "
                + "FROM new_order GROUP BY no_w_id, no_d_id")) {
            while (r.next()) {
                Dist d = ds.computeIfAbsent(List.of(r.getLong(1), r.getLong(2)), k -> new Dist());
                d.newOrders = r.getLong(3);
                d.noMin = r.getLong(4);
                d.noMax = r.getLong(5);
            }
        }
        try (ResultSet r = st.executeQuery("SELECT ol_w_id, ol_d_id, count(*) FROM order_line "
                + "GROUP BY ol_w_id, ol_d_id")) {
            while (r.next()) {
                ds.computeIfAbsent(List.of(r.getLong(1), r.getLong(2)), k -> new Dist()).lines = r.getLong(3);
            }
        }
        long orders = 0;
        long newOrders = 0;
        long lines = 0;
        for (Map.Entry<List<Long>, Dist> e : ds.entrySet()) {
            Dist d = e.getValue();
            orders += d.orders;
            newOrders += d.newOrders;
            lines += d.lines;
            district("district (" + e.getKey().get(0) + ", " + e.getKey().get(1) + ")", d);
        }
        scanned.put("district", (long) ds.size());
        scanned.put("oorder", orders);
        scanned.put("new_order", newOrders);
        scanned.put("order_line", lines);
    }

    private void district(String where, Dist d) {
        if (!d.exists) {
            add(Check.NEXT_ORDER_ID, where, "no district row but " + d.orders + " orders, " + d.newOrders
                    + " new_order rows, " + d.lines + " order lines");
            return;
        }
        if (d.nextOId - 1 != d.maxOId) {
            add(Check.NEXT_ORDER_ID, where, "D_NEXT_O_ID - 1 = " + (d.nextOId - 1) + " but max(O_ID) = " + d.maxOId
                    + " (" + d.orders + " orders)");
        }
        if (d.newOrders > 0 && d.nextOId - 1 != d.noMax) {
            add(Check.NEXT_ORDER_ID, where, "D_NEXT_O_ID - 1 = " + (d.nextOId - 1) + " but max(NO_O_ID) = "
                    + d.noMax);
        }
        if (d.newOrders > 0 && d.noMax - d.noMin + 1 != d.newOrders) {
            add(Check.NEW_ORDER_RANGE, where, "max(NO_O_ID) - min(NO_O_ID) + 1 = " + d.noMax + " - " + d.noMin
                    + " + 1 = " + (d.noMax - d.noMin + 1) + " but there are " + d.newOrders + " new_order rows");
        }
        if (d.sumOlCnt != d.lines) {
            add(Check.ORDER_LINE_COUNT, where, "sum(O_OL_CNT) = " + d.sumOlCnt + " but there are " + d.lines
                    + " order_line rows");
        }
        long expectedCursor = d.newOrders > 0 ? d.noMin : d.nextOId;
        if (d.cursor == Long.MIN_VALUE) {
            add(Check.DELIVERY_CURSOR, where, "no district_deliv row");
        } else if (d.cursor != expectedCursor) {
            add(Check.DELIVERY_CURSOR, where, "d_next_deliv_o_id = " + d.cursor + " but "
                    + (d.newOrders > 0 ? "min(NO_O_ID) = " : "no new_order rows and D_NEXT_O_ID = ") + expectedCursor);
        }
    }

    private static final String LATEST = "(SELECT o_w_id, o_d_id, o_c_id, max(o_id) AS max_o FROM oorder "
            + "GROUP BY o_w_id, o_d_id, o_c_id)";

    private void lastOrderIndex(Statement st) throws SQLException {
        try (ResultSet r = st.executeQuery("SELECT count(*) FROM customer_last_order")) {
            r.next();
            scanned.put("customer_last_order", r.getLong(1));
        }
        try (ResultSet r = st.executeQuery("SELECT clo_w_id, clo_d_id, clo_c_id, clo_o_id, o.o_id, o.o_c_id, m.max_o "
                + "FROM customer_last_order clo "
                + "LEFT JOIN oorder o ON o.o_w_id = clo_w_id AND o.o_d_id = clo_d_id AND o.o_id = clo_o_id "
                + "LEFT JOIN " + LATEST + " m ON m.o_w_id = clo_w_id AND m.o_d_id = clo_d_id AND m.o_c_id = clo_c_id "
                + "WHERE o.o_id IS NULL OR o.o_c_id <> clo_c_id OR m.max_o <> clo_o_id")) {
            while (r.next()) {
                String where = "customer (" + r.getLong(1) + ", " + r.getLong(2) + ", " + r.getLong(3) + ")";
                long o = r.getLong(4);
                r.getLong(5);
                if (r.wasNull()) {
                    add(Check.LAST_ORDER_INDEX, where, "clo_o_id = " + o + " but there is no such order");
                } else if (r.getLong(6) != r.getLong(3)) {
                    add(Check.LAST_ORDER_INDEX, where, "clo_o_id = " + o + " but that order's O_C_ID = "
                            + r.getLong(6));
                } else {
                    add(Check.LAST_ORDER_INDEX, where, "clo_o_id = " + o + " but the customer's latest order is "
                            + r.getLong(7));
                }
            }
        }
        try (ResultSet r = st.executeQuery("SELECT m.o_w_id, m.o_d_id, m.o_c_id, m.max_o FROM " + LATEST + " m "
                + "WHERE NOT EXISTS (SELECT 1 FROM customer_last_order WHERE clo_w_id = m.o_w_id "
                + "AND clo_d_id = m.o_d_id AND clo_c_id = m.o_c_id)")) {
            while (r.next()) {
                add(Check.LAST_ORDER_INDEX, "customer (" + r.getLong(1) + ", " + r.getLong(2) + ", " + r.getLong(3)
                        + ")", "has orders (latest " + r.getLong(4) + ") but no customer_last_order row");
            }
        }
    }

    private ConsistencyResult result() {
        if (counts.isEmpty()) {
            return ConsistencyResult.ok("TPC-C consistency conditions 1-4 hold (checked in SQL; rows "
                    + scanned + ")");
        }
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder b = new StringBuilder("TPC-C consistency: " + total + " violations");
        counts.forEach((c, n) -> b.append(' ').append(c).append('=').append(n));
        problems.stream().limit(5).forEach(p -> b.append("\n  ").append(p));
        if (total > 5) {
            b.append("\n  ...");
        }
        return ConsistencyResult.violated(b.toString(), problems);
    }
}
