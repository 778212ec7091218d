package org.tebaldi.bench.chiller;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.ycsb.ZipfianGenerator;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/**
 * TPC-C's NewOrder with Instacart-like skewed item popularity — the workload of Chiller's evaluation (Zamanian et
 * al., SIGMOD 2020, §7: TPC-C NewOrder, and Instacart's real order data, where a few products are in a large share of
 * the orders). Tables {@code district(w, d) → d_next_o_id}, {@code stock(w, i) → s_quantity, s_order_cnt,
 * s_remote_cnt}, {@code orders(w, d, o)}, {@code order_line(w, d, o, n)}; every table is hash-partitioned on its
 * whole key (no warehouse affinity: "hash partitioning", the baseline Chiller's placement is compared with). Items,
 * warehouses' and customers' read-only rows are left out: they never conflict.
 *
 * <p>Each order has {@code linesMin..linesMax} distinct items drawn Zipf({@code theta}) over {@code items} (item 1 the
 * most popular), each supplied by a remote warehouse with probability {@code remoteLines} percent (TPC-C: 1), else
 * by the home warehouse; a uniform home warehouse and district. Lines are sorted from the least to the most popular
 * item ({@link SkewedNewOrder}).
 *
 * <p>Consistency: every district's {@code d_next_o_id − 1} orders exist with their lines, and the stock rows'
 * {@code s_order_cnt} sum to the number of order lines.
 */
public final class SkewedNewOrderWorkload implements Workload {
    public static final String DISTRICT = "district";
    public static final String STOCK = "stock";
    public static final String ORDERS = "orders";
    public static final String ORDER_LINE = "order_line";
    /** Districts per warehouse (TPC-C). */
    public static final int DISTRICTS = 10;

    /**
     * @param warehouses  W, at least 1
     * @param items       items (stock rows per warehouse), at least {@code linesMax}
     * @param theta       Zipf skew of item popularity, [0, 2]
     * @param linesMin    fewest lines per order, 1..15
     * @param linesMax    most lines per order, linesMin..15
     * @param remoteLines percent of lines supplied by a remote warehouse, 0..100
     */
    public record Config(int warehouses, int items, double theta, int linesMin, int linesMax, double remoteLines) {
    }

    private final Config cfg;
    private final Database db;
    private final TableSchema district;
    private final TableSchema stock;
    private final ZipfianGenerator zipf;

    /** Builds the tables, the procedure and the popularity law (O(items)). */
    public SkewedNewOrderWorkload(Config cfg) {
        this.cfg = cfg;
        Catalog c = new Catalog();
        district = c.add(DISTRICT, 2, -1, false, Catalog.longCol("d_next_o_id"));
        stock = c.add(STOCK, 2, -1, false, Catalog.longCol("s_quantity"), Catalog.longCol("s_order_cnt"),
                Catalog.longCol("s_remote_cnt"));
        c.add(ORDERS, 3, -1, false, Catalog.longCol("o_c_id"), Catalog.longCol("o_ol_cnt"));
        c.add(ORDER_LINE, 4, -1, false, Catalog.longCol("ol_i_id"), Catalog.longCol("ol_supply_w_id"),
                Catalog.longCol("ol_quantity"));
        db = new Database(c);
        db.procedure(SkewedNewOrder.procedure(c));
        zipf = new ZipfianGenerator(cfg.items(), cfg.theta());
    }

    @Override
    public String name() {
        return "skewed-neworder";
    }

    @Override
    public Database database() {
        return db;
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        loader.expect(DISTRICT, (long) cfg.warehouses() * DISTRICTS);
        loader.expect(STOCK, (long) cfg.warehouses() * cfg.items());
        for (long w = 1; w <= cfg.warehouses(); w++) {
            for (long d = 1; d <= DISTRICTS; d++) {
                loader.load(Key.of(district, w, d), district.row(1L));
            }
            for (long i = 1; i <= cfg.items(); i++) {
                loader.load(Key.of(stock, w, i), stock.row(50L, 0L, 0L));
            }
            progress.report(STOCK, w * cfg.items(), (long) cfg.warehouses() * cfg.items());
        }
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return () -> next(r);
    }

    private TxnRequest next(SplittableRandom r) {
        long w = 1 + r.nextInt(cfg.warehouses());
        long d = 1 + r.nextInt(DISTRICTS);
        int n = cfg.linesMin() + r.nextInt(cfg.linesMax() - cfg.linesMin() + 1);
        long[] items = new long[n];
        for (int i = 0; i < n; i++) {
            long it;
            boolean dup;
            do {
                it = zipf.next(r) + 1;
                dup = false;
                for (int j = 0; j < i; j++) {
                    dup |= items[j] == it;
                }
            } while (dup);
            items[i] = it;
        }
        Arrays.sort(items);
        long[] sorted = new long[n];
        long[] supply = new long[n];
        long[] qty = new long[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = items[n - 1 - i]; // least popular (largest id) first, the hottest last
            supply[i] = cfg.warehouses() > 1 && r.nextDouble() * 100 < cfg.remoteLines()
                    ? 1 + (w + r.nextInt(cfg.warehouses() - 1)) % cfg.warehouses() : w;
            qty[i] = 1 + r.nextInt(10);
        }
        return TxnRequest.procedure(SkewedNewOrder.NAME, SkewedNewOrder.inputs(w, d, 1 + r.nextInt(3000), sorted,
                supply, qty));
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot s) {
        List<String> problems = new ArrayList<>();
        long[] expectedOrders = {0};
        s.forEach(DISTRICT, (k, row) -> expectedOrders[0] += row.getLong("d_next_o_id") - 1);
        long orders = s.count(ORDERS);
        long lines = s.count(ORDER_LINE);
        long[] ordered = {0};
        s.forEach(STOCK, (k, row) -> ordered[0] += row.getLong("s_order_cnt"));
        if (orders != expectedOrders[0]) {
            problems.add(orders + " orders, but the districts handed out " + expectedOrders[0] + " order ids");
        }
        if (ordered[0] != lines) {
            problems.add("stock rows count " + ordered[0] + " ordered lines, order_line has " + lines);
        }
        String summary = orders + " orders, " + lines + " lines";
        return problems.isEmpty() ? ConsistencyResult.ok(summary) : ConsistencyResult.violated(summary, problems);
    }
}
