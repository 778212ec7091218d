package org.tebaldi.bench.tpcc;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.tebaldi.bench.tpcc.ConsistencyReport.Check;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/**
 * Checks a TPC-C database state (the latest committed rows, after a run) against the consistency conditions 1–4
 * of TPC-C §3.3.2.1–§3.3.2.4 and the invariants of the key-value adaptation (see {@link ConsistencyReport.Check}).
 * Money is compared with a tolerance of half a cent, since year-to-date sums are doubles added in different
 * orders. Reads each of warehouse, district, district_deliv, oorder, new_order, order_line and
 * customer_last_order once; memory is per district plus one entry per customer with an order.
 */
public final class TpccConsistency {
    /** Iterates the rows of one table (deleted rows excluded), in any order. */
    @FunctionalInterface
    public interface TableScan {
        /** Calls {@code visitor} once per live row of table {@code tableId}. */
        void forEach(int tableId, BiConsumer<Key, Row> visitor);
    }

    /** Largest accepted |W_YTD - sum(D_YTD)|, dollars. */
    public static final double MONEY_TOLERANCE = 0.005;

    private final TpccSchema s;

    /** A checker over the tables of {@code schema}. */
    public TpccConsistency(TpccSchema schema) {
        this.s = Objects.requireNonNull(schema);
    }

    /** Per-district aggregates. */
    private static final class Dist {
        boolean exists;
        double ytd;
        long nextOId;
        long cursor = Long.MIN_VALUE;
        long orders;
        long maxOId;
        long sumOlCnt;
        long newOrders;
        long noMin = Long.MAX_VALUE;
        long noMax = Long.MIN_VALUE;
        long lines;
    }

    private record CustomerId(long w, long d, long c) {
    }

    /**
     * Runs every check.
     *
     * @param get  the latest committed row of a key, or null if absent or deleted
     * @param scan iterates a table's rows
     * @return the report (never null; {@link ConsistencyReport#ok()} if everything holds)
     */
    public ConsistencyReport check(Function<Key, Row> get, TableScan scan) {
        Map<String, Long> scanned = new LinkedHashMap<>();
        ConsistencyReport report = new ConsistencyReport(scanned);
        Map<Long, Double> wYtd = new TreeMap<>();
        Map<Long, Dist> dists = new TreeMap<>();
        Map<CustomerId, Long> latest = new HashMap<>();

        scan(scan, s.warehouse(), scanned, (k, r) -> wYtd.put(k.part(0), r.getDouble("w_ytd")));
        scan(scan, s.district(), scanned, (k, r) -> {
            Dist d = dist(dists, k);
            d.exists = true;
            d.ytd = r.getDouble("d_ytd");
            d.nextOId = r.getLong("d_next_o_id");
        });
        scan(scan, s.districtDeliv(), scanned, (k, r) -> dist(dists, k).cursor = r.getLong("d_next_deliv_o_id"));
        scan(scan, s.oorder(), scanned, (k, r) -> {
            Dist d = dist(dists, k);
            long o = k.part(2);
            d.orders++;
            d.maxOId = Math.max(d.maxOId, o);
            d.sumOlCnt += r.getLong("o_ol_cnt");
            latest.merge(new CustomerId(k.part(0), k.part(1), r.getLong("o_c_id")), o, Math::max);
        });
        scan(scan, s.newOrder(), scanned, (k, r) -> {
            Dist d = dist(dists, k);
            long o = k.part(2);
            d.newOrders++;
            d.noMin = Math.min(d.noMin, o);
            d.noMax = Math.max(d.noMax, o);
        });
        scan(scan, s.orderLine(), scanned, (k, r) -> dist(dists, k).lines++);

        checkWarehouses(report, wYtd, dists);
        dists.forEach((packed, d) -> checkDistrict(report, packed, d));
        checkLastOrderIndex(report, get, scan, scanned, latest);
        return report;
    }

    private static void scan(TableScan scan, TableSchema t, Map<String, Long> scanned, BiConsumer<Key, Row> v) {
        long[] n = {0};
        scan.forEach(t.id(), (k, r) -> {
            n[0]++;
            v.accept(k, r);
        });
        scanned.put(t.name(), n[0]);
    }

    private static Dist dist(Map<Long, Dist> dists, Key k) {
        return dists.computeIfAbsent(pack(k.part(0), k.part(1)), x -> new Dist());
    }

    private static long pack(long w, long d) {
        return (w << 20) | (d & 0xFFFFF);
    }

    private static String where(long packed) {
        return "district (" + (packed >> 20) + ", " + (packed & 0xFFFFF) + ")";
    }

    private static void checkWarehouses(ConsistencyReport report, Map<Long, Double> wYtd, Map<Long, Dist> dists) {
        Map<Long, double[]> sums = new TreeMap<>();
        dists.forEach((packed, d) -> {
            if (d.exists) {
                double[] acc = sums.computeIfAbsent(packed >> 20, x -> new double[2]);
                acc[0] += d.ytd;
                acc[1]++;
            }
        });
        wYtd.forEach((w, ytd) -> {
            double[] acc = sums.getOrDefault(w, new double[2]);
            if (Math.abs(ytd - acc[0]) > MONEY_TOLERANCE) {
                report.add(Check.WAREHOUSE_YTD, "warehouse " + w, String.format(Locale.ROOT,
                        "W_YTD = %.2f but sum(D_YTD) = %.2f over %d districts", ytd, acc[0], (long) acc[1]));
            }
        });
        sums.forEach((w, acc) -> {
            if (!wYtd.containsKey(w)) {
                report.add(Check.WAREHOUSE_YTD, "warehouse " + w, String.format(Locale.ROOT,
                        "no warehouse row but %d districts with sum(D_YTD) = %.2f", (long) acc[1], acc[0]));
            }
        });
    }

    private static void checkDistrict(ConsistencyReport report, long packed, Dist d) {
        String where = where(packed);
        if (!d.exists) {
            report.add(Check.NEXT_ORDER_ID, where, "no district row but " + d.orders + " orders, " + d.newOrders
                    + " new_order rows, " + d.lines + " order lines");
            return;
        }
        if (d.nextOId - 1 != d.maxOId) {
            report.add(Check.NEXT_ORDER_ID, where, "D_NEXT_O_ID - 1 = " + (d.nextOId - 1) + " but max(O_ID) = "
                    + d.maxOId + " (" + d.orders + " orders)");
        }
        if (d.newOrders > 0 && d.nextOId - 1 != d.noMax) {
            report.add(Check.NEXT_ORDER_ID, where, "D_NEXT_O_ID - 1 = " + (d.nextOId - 1) + " but max(NO_O_ID) = "
                    + d.noMax);
        }
        if (d.newOrders > 0 && d.noMax - d.noMin + 1 != d.newOrders) {
            report.add(Check.NEW_ORDER_RANGE, where, "max(NO_O_ID) - min(NO_O_ID) + 1 = " + d.noMax + " - " + d.noMin
                    + " + 1 = " + (d.noMax - d.noMin + 1) + " but there are " + d.newOrders + " new_order rows");
        }
        if (d.sumOlCnt != d.lines) {
            report.add(Check.ORDER_LINE_COUNT, where, "sum(O_OL_CNT) = " + d.sumOlCnt + " but there are " + d.lines
                    + " order_line rows");
        }
        long expectedCursor = d.newOrders > 0 ? d.noMin : d.nextOId;
        if (d.cursor == Long.MIN_VALUE) {
            report.add(Check.DELIVERY_CURSOR, where, "no district_deliv row");
        } else if (d.cursor != expectedCursor) {
            report.add(Check.DELIVERY_CURSOR, where, "d_next_deliv_o_id = " + d.cursor + " but "
                    + (d.newOrders > 0 ? "min(NO_O_ID) = " : "no new_order rows and D_NEXT_O_ID = ") + expectedCursor);
        }
    }

    private void checkLastOrderIndex(ConsistencyReport report, Function<Key, Row> get, TableScan scan,
                                     Map<String, Long> scanned, Map<CustomerId, Long> latest) {
        Map<CustomerId, Long> unindexed = new HashMap<>(latest);
        scan(scan, s.customerLastOrder(), scanned, (k, r) -> {
            CustomerId cust = new CustomerId(k.part(0), k.part(1), k.part(2));
            String where = "customer (" + cust.w() + ", " + cust.d() + ", " + cust.c() + ")";
            long o = r.getLong("clo_o_id");
            unindexed.remove(cust);
            Row order = get.apply(Key.of(s.oorder(), cust.w(), cust.d(), o));
            if (order == null) {
                report.add(Check.LAST_ORDER_INDEX, where, "clo_o_id = " + o + " but there is no such order");
                return;
            }
            if (order.getLong("o_c_id") != cust.c()) {
                report.add(Check.LAST_ORDER_INDEX, where, "clo_o_id = " + o + " but that order's O_C_ID = "
                        + order.getLong("o_c_id"));
                return;
            }
            Long max = latest.get(cust);
            if (max != null && max != o) {
                report.add(Check.LAST_ORDER_INDEX, where, "clo_o_id = " + o + " but the customer's latest order is "
                        + max);
            }
        });
        unindexed.forEach((cust, o) -> report.add(Check.LAST_ORDER_INDEX,
                "customer (" + cust.w() + ", " + cust.d() + ", " + cust.c() + ")",
                "has orders (latest " + o + ") but no customer_last_order row"));
    }
}
