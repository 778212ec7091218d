package org.tebaldi.bench.tpcc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/**
 * Populates a TPC-C database (TPC-C §4.3.3.1, adapted as in {@link TpccSchema}): {@code item} (and
 * {@code item_stats} under the hot_item mix), then per warehouse its row, its {@code stock}, 10 districts with
 * their delivery cursors, customers with one history row each, orders (customer ids a random permutation; the
 * last 30% undelivered, with a {@code new_order} row, null carrier and delivery dates and random amounts), 5–15
 * order lines per order, and the {@code customer_last_order} index.
 *
 * <p>Deterministic: the same config (seed included) and load time give the same rows in the same order. Memory:
 * rows are handed to the sink one at a time; the loader keeps only the per-order line counts (one byte per order),
 * pools of random filler strings ({@link StringPool}) and boxed ids it shares between rows. The row count is known
 * before loading ({@link #expectedRows()}), so progress is exact.
 */
public final class TpccLoader {
    /** Progress callback: rows handed to the sink so far and the total that will be. */
    @FunctionalInterface
    public interface Progress {
        /** Progress that reports nothing. */
        Progress NONE = (loaded, expected) -> { };

        /**
         * @param rowsLoaded   rows handed to the sink so far
         * @param rowsExpected the load's total
         */
        void update(long rowsLoaded, long rowsExpected);
    }

    /** Progress is reported every this many rows, and once at the end. */
    public static final long PROGRESS_EVERY = 100_000;

    private static final Double ZERO = 0.0;
    private static final Double TEN = 10.0;
    private static final Double MINUS_TEN = -10.0;
    private static final Double CREDIT_LIM = 50_000.0;
    private static final Double D_YTD = 30_000.0;
    private static final Double W_YTD = 300_000.0;
    private static final Long ZERO_L = 0L;
    private static final Long ONE_L = 1L;

    private final TpccConfig cfg;
    private final TpccSchema s;
    private final NuRandConstants c;
    private final Long loadTime;
    private final byte[][] olCnt;
    private final Long[] longs;
    private final String[] lastNames = new String[1000];
    private final Map<String, Long> expected = new LinkedHashMap<>();
    private final long expectedTotal;
    private BiConsumer<Key, Row> sink;
    private Progress progress;
    private long loaded;

    /**
     * @param loadTimeMillis the load's "current date/time" (c_since, o_entry_d, h_date), epoch ms
     */
    public TpccLoader(TpccConfig cfg, TpccSchema schema, NuRandConstants constants, long loadTimeMillis) {
        this.cfg = Objects.requireNonNull(cfg);
        this.s = Objects.requireNonNull(schema);
        this.c = Objects.requireNonNull(constants);
        this.loadTime = loadTimeMillis;
        int districts = cfg.warehouses() * TpccConfig.DISTRICTS;
        olCnt = new byte[districts][];
        long lines = 0;
        for (int w = 1; w <= cfg.warehouses(); w++) {
            for (int d = 1; d <= TpccConfig.DISTRICTS; d++) {
                TpccRandom r = new TpccRandom(mix(cfg.seed(), w, d));
                byte[] counts = new byte[cfg.ordersPerDistrict()];
                for (int o = 0; o < counts.length; o++) {
                    counts[o] = (byte) r.uniformInt(5, 15);
                    lines += counts[o];
                }
                olCnt[districtIndex(w, d)] = counts;
            }
        }
        longs = new Long[Math.max(cfg.items(), Math.max(cfg.customersPerDistrict(), cfg.ordersPerDistrict())) + 2];
        for (int i = 0; i < longs.length; i++) {
            longs[i] = (long) i;
        }
        for (int i = 0; i < 1000; i++) {
            lastNames[i] = TpccRandom.lastName(i);
        }
        long w = cfg.warehouses();
        long wd = w * TpccConfig.DISTRICTS;
        expected.put(TpccSchema.ITEM, (long) cfg.items());
        expected.put(TpccSchema.ITEM_STATS, cfg.mix() == TpccMix.HOT_ITEM ? cfg.items() : 0L);
        expected.put(TpccSchema.WAREHOUSE, w);
        expected.put(TpccSchema.STOCK, w * cfg.items());
        expected.put(TpccSchema.DISTRICT, wd);
        expected.put(TpccSchema.DISTRICT_DELIV, wd);
        expected.put(TpccSchema.CUSTOMER, wd * cfg.customersPerDistrict());
        expected.put(TpccSchema.HISTORY, wd * cfg.customersPerDistrict());
        expected.put(TpccSchema.OORDER, wd * cfg.ordersPerDistrict());
        expected.put(TpccSchema.ORDER_LINE, lines);
        expected.put(TpccSchema.NEW_ORDER, wd * cfg.newOrdersPerDistrict());
        expected.put(TpccSchema.CUSTOMER_LAST_ORDER,
                wd * Math.min(cfg.customersPerDistrict(), cfg.ordersPerDistrict()));
        expectedTotal = expected.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Rows the load will produce, per table name (exact, known before loading). */
    public Map<String, Long> expectedRowsPerTable() {
        return java.util.Collections.unmodifiableMap(expected);
    }

    /** Total rows the load will produce. */
    public long expectedRows() {
        return expectedTotal;
    }

    /**
     * Number of order lines of initial order {@code o} of district (w, d): the spec's random 5..15 (O_OL_CNT).
     *
     * @throws IndexOutOfBoundsException for a warehouse, district or order outside the config
     */
    public int initialOrderLines(int w, int d, int o) {
        return olCnt[districtIndex(w, d)][o - 1];
    }

    /**
     * Hands every row to {@code sink}, in a deterministic order, reporting progress every {@link #PROGRESS_EVERY}
     * rows and at the end. Not thread-safe; the sink is called on the caller's thread.
     *
     * @return the number of rows loaded (equals {@link #expectedRows()})
     */
    public long load(BiConsumer<Key, Row> sink, Progress progress) {
        this.sink = Objects.requireNonNull(sink);
        this.progress = Objects.requireNonNull(progress);
        this.loaded = 0;
        TpccRandom pools = new TpccRandom(mix(cfg.seed(), 0, 1));
        Strings str = new Strings(pools);
        loadItems(new TpccRandom(mix(cfg.seed(), 0, 0)));
        for (int w = 1; w <= cfg.warehouses(); w++) {
            loadWarehouse(w, new TpccRandom(mix(cfg.seed(), w, 0)), str);
        }
        progress.update(loaded, expectedTotal);
        if (loaded != expectedTotal) {
            throw new IllegalStateException("loaded " + loaded + " rows, expected " + expectedTotal);
        }
        return loaded;
    }

    /** Filler-string pools (TPC-C §4.3.3.1 lengths). */
    private static final class Strings {
        final StringPool name610;
        final StringPool street;
        final StringPool state;
        final StringPool zip;
        final StringPool first;
        final StringPool phone;
        final StringPool cData;
        final StringPool dist;
        final StringPool sData;
        final StringPool hData;

        Strings(TpccRandom r) {
            name610 = new StringPool(StringPool.SIZE, () -> r.aString(6, 10));
            street = new StringPool(StringPool.SIZE, () -> r.aString(10, 20));
            state = new StringPool(StringPool.SIZE, () -> r.aString(2, 2));
            zip = new StringPool(StringPool.SIZE, r::zip);
            first = new StringPool(StringPool.SIZE, () -> r.aString(8, 16));
            phone = new StringPool(StringPool.SIZE, () -> r.nString(16, 16));
            cData = new StringPool(StringPool.SIZE, () -> r.aString(300, 500));
            dist = new StringPool(StringPool.SIZE, () -> r.aString(24, 24));
            sData = new StringPool(StringPool.SIZE, () -> r.data(26, 50));
            hData = new StringPool(StringPool.SIZE, () -> r.aString(12, 24));
        }
    }

    private void loadItems(TpccRandom r) {
        TableSchema item = s.item();
        for (int i = 1; i <= cfg.items(); i++) {
            emit(Key.of(item, i), item.row(r.uniform(1, 10_000), r.aString(14, 24), r.fixed(2, 1.0, 100.0),
                    r.data(26, 50)));
        }
        if (cfg.mix() == TpccMix.HOT_ITEM) {
            TableSchema stats = s.itemStats();
            for (int i = 1; i <= cfg.items(); i++) {
                emit(Key.of(stats, i), stats.row(ZERO_L));
            }
        }
    }

    private void loadWarehouse(int w, TpccRandom r, Strings str) {
        TableSchema wh = s.warehouse();
        emit(Key.of(wh, w), wh.row(str.name610.pick(r), str.street.pick(r), str.street.pick(r), str.street.pick(r),
                str.state.pick(r), str.zip.pick(r), r.fixed(4, 0.0, 0.2), W_YTD));
        TableSchema stock = s.stock();
        Object[] sv = new Object[stock.columns().size()];
        for (int i = 1; i <= cfg.items(); i++) {
            sv[0] = r.uniform(10, 100);
            for (int d = 1; d <= TpccConfig.DISTRICTS; d++) {
                sv[d] = str.dist.pick(r);
            }
            sv[TpccConfig.DISTRICTS + 1] = ZERO_L;
            sv[TpccConfig.DISTRICTS + 2] = ZERO_L;
            sv[TpccConfig.DISTRICTS + 3] = ZERO_L;
            sv[TpccConfig.DISTRICTS + 4] = str.sData.pick(r);
            emit(Key.of(stock, w, i), stock.row(sv));
        }
        for (int d = 1; d <= TpccConfig.DISTRICTS; d++) {
            loadDistrict(w, d, r, str);
        }
    }

    private void loadDistrict(int w, int d, TpccRandom r, Strings str) {
        TableSchema dist = s.district();
        emit(Key.of(dist, w, d), dist.row(str.name610.pick(r), str.street.pick(r), str.street.pick(r),
                str.street.pick(r), str.state.pick(r), str.zip.pick(r), r.fixed(4, 0.0, 0.2), D_YTD,
                boxed(cfg.ordersPerDistrict() + 1)));
        emit(Key.of(s.districtDeliv(), w, d), s.districtDeliv().row(boxed(cfg.firstUndeliveredOrder())));
        int customers = cfg.customersPerDistrict();
        TableSchema cust = s.customer();
        TableSchema hist = s.history();
        for (int cid = 1; cid <= customers; cid++) {
            String last = lastNames[cid <= 1000 ? cid - 1 : (int) r.nuRand(255, 0, 999, c.cLast())];
            String credit = r.percent(10) ? "BC" : "GC";
            emit(Key.of(cust, w, d, cid), cust.row(str.first.pick(r), "OE", last, str.street.pick(r),
                    str.street.pick(r), str.street.pick(r), str.state.pick(r), str.zip.pick(r), str.phone.pick(r),
                    loadTime, credit, CREDIT_LIM, r.fixed(4, 0.0, 0.5), MINUS_TEN, TEN, ONE_L, ZERO_L,
                    str.cData.pick(r)));
            emit(Key.of(hist, w, d, cid, 0), hist.row(boxed(d), boxed(w), loadTime, TEN, str.hData.pick(r)));
        }
        loadOrders(w, d, r, str);
    }

    private void loadOrders(int w, int d, TpccRandom r, Strings str) {
        int customers = cfg.customersPerDistrict();
        int orders = cfg.ordersPerDistrict();
        int firstNew = cfg.firstUndeliveredOrder();
        int[] perm = new int[customers];
        for (int i = 0; i < customers; i++) {
            perm[i] = i + 1;
        }
        for (int i = customers - 1; i > 0; i--) {
            int j = r.uniformInt(0, i);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        int[] lastOrder = new int[customers + 1];
        byte[] counts = olCnt[districtIndex(w, d)];
        TableSchema oorder = s.oorder();
        TableSchema line = s.orderLine();
        for (int o = 1; o <= orders; o++) {
            int cid = perm[(o - 1) % customers];
            lastOrder[cid] = o;
            boolean delivered = o < firstNew;
            int cnt = counts[o - 1];
            emit(Key.of(oorder, w, d, o), oorder.row(boxed(cid), loadTime,
                    delivered ? boxed(r.uniformInt(1, 10)) : null, boxed(cnt), ONE_L));
            for (int n = 1; n <= cnt; n++) {
                emit(Key.of(line, w, d, o, n), line.row(boxed(r.uniformInt(1, cfg.items())), boxed(w),
                        delivered ? loadTime : null, boxed(5), delivered ? ZERO : r.fixed(2, 0.01, 9999.99),
                        str.dist.pick(r)));
            }
        }
        TableSchema no = s.newOrder();
        for (int o = firstNew; o <= orders; o++) {
            emit(Key.of(no, w, d, o), no.row());
        }
        TableSchema clo = s.customerLastOrder();
        for (int cid = 1; cid <= customers; cid++) {
            if (lastOrder[cid] != 0) {
                emit(Key.of(clo, w, d, cid), clo.row(boxed(lastOrder[cid])));
            }
        }
    }

    private void emit(Key key, Row row) {
        sink.accept(key, row);
        if (++loaded % PROGRESS_EVERY == 0) {
            progress.update(loaded, expectedTotal);
        }
    }

    private Long boxed(int v) {
        return v >= 0 && v < longs.length ? longs[v] : Long.valueOf(v);
    }

    private int districtIndex(int w, int d) {
        if (w < 1 || w > cfg.warehouses() || d < 1 || d > TpccConfig.DISTRICTS) {
            throw new IndexOutOfBoundsException("no district (" + w + ", " + d + ") in " + cfg.warehouses()
                    + " warehouses");
        }
        return (w - 1) * TpccConfig.DISTRICTS + d - 1;
    }

    /** A well-mixed seed for stream (a, b) of a load (SplitMix64 finaliser). */
    static long mix(long seed, long a, long b) {
        long z = seed + 0x9E3779B97F4A7C15L * (a * 1_000_003L + b + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
