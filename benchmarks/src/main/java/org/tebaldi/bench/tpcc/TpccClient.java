package org.tebaldi.bench.tpcc;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Generates one client's (terminal's) transactions (TPC-C §2.4.1, §2.5.1, §2.6.1, §2.7.1, §2.8.1; dissertation
 * §4.6): the type is drawn from the mix; the client is bound to home warehouse {@code (index mod W) + 1} and, for
 * stock_level, to district {@code (index / W mod 10) + 1} (§2.8.1.1). Not thread-safe; one per logical client.
 *
 * <ul>
 *   <li>new_order: district uniform 1..10, customer NURand(1023, 1, C), 5..15 lines with distinct items
 *       NURand(8191, 1, I), quantity 1..10, each line supplied by another warehouse with probability 1% when W > 1;
 *       no rolled-back orders. With {@link #remote} set (COCO's knob), instead a share of the orders is remote:
 *       one random line of such an order is supplied by another warehouse, the others by the home warehouse.</li>
 *   <li>payment: district uniform, amount 1.00..5000.00; with probability 15% (when W > 1; {@link #remote} sets
 *       another share) the customer belongs to
 *       a random other warehouse and district; customer by id NURand(1023, 1, C) (no last names);
 *       {@code h_seq = index << 32 | counter}.</li>
 *   <li>delivery: carrier uniform 1..10 (§2.7.1.2).</li>
 *   <li>order_status: district uniform, customer NURand(1023, 1, C).</li>
 *   <li>stock_level: the client's district, threshold uniform 10..20.</li>
 *   <li>hot_item: district uniform.</li>
 * </ul>
 */
public final class TpccClient {
    private final TpccConfig cfg;
    private boolean batchedReads;
    private final NuRandConstants c;
    private final TpccRandom r;
    private final int index;
    private final long homeW;
    private final long stockLevelD;
    private int stockLevelDistricts = 1;
    private final LongSupplier clock;
    private long historyCounter;
    /** Per cent of new_order transactions with one remote line; -1: the spec's 1% per line. */
    private int newOrderRemote = -1;
    /** Per cent of payments by a customer of another warehouse (spec: 15). */
    private int paymentRemote = 15;

    /**
     * @param index client index, at least 0 and below 2^31 (decides the home warehouse and the h_seq prefix)
     * @param seed  seed of this client's random stream (mixed with the run seed)
     * @param clock epoch-ms clock for the dates the transactions write
     * @throws IllegalArgumentException on a negative index
     */
    public TpccClient(TpccConfig cfg, NuRandConstants constants, int index, long seed, LongSupplier clock) {
        if (index < 0) {
            throw new IllegalArgumentException("client index must be >= 0, got " + index);
        }
        this.cfg = Objects.requireNonNull(cfg);
        this.c = Objects.requireNonNull(constants);
        this.index = index;
        this.r = new TpccRandom(TpccLoader.mix(cfg.seed() ^ seed, index, 7));
        this.homeW = (index % cfg.warehouses()) + 1;
        this.stockLevelD = (index / cfg.warehouses()) % TpccConfig.DISTRICTS + 1;
        this.clock = Objects.requireNonNull(clock);
    }

    /** The home warehouse id. */
    public long homeWarehouse() {
        return homeW;
    }

    /** The next transaction, its type drawn from the mix. */
    public TpccRequest next() {
        return next(cfg.mix());
    }

    /**
     * The next transaction, its type drawn from {@code mix} (a workload shift's mix, {@code workload.shift}).
     *
     * @throws IllegalArgumentException if {@code mix} draws a type not in the config's mix
     */
    public TpccRequest next(TpccMix mix) {
        return next(mix.pick(r.uniformInt(0, 999)));
    }

    /**
     * The next transaction of a given type.
     *
     * @throws IllegalArgumentException for a type not in the config's mix
     */
    public TpccRequest next(String type) {
        if (!cfg.mix().types().contains(type)) {
            throw new IllegalArgumentException("type '" + type + "' is not in mix " + cfg.mix() + " "
                    + cfg.mix().types());
        }
        return switch (type) {
            case NewOrder.NAME -> newOrder();
            case Payment.NAME -> payment();
            case Delivery.NAME -> new TpccRequest(type, Delivery.inputs(homeW, r.uniform(1, 10), clock.getAsLong()),
                    null);
            case OrderStatus.NAME -> orderStatus();
            case StockLevel.NAME -> stockLevel();
            case HotItem.NAME -> new TpccRequest(type, HotItem.inputs(homeW, district()), null);
            default -> throw new AssertionError(type);
        };
    }

    private long district() {
        return r.uniform(1, TpccConfig.DISTRICTS);
    }

    private long customer() {
        return r.nuRand(1023, 1, cfg.customersPerDistrict(), c.cId());
    }

    private long otherWarehouse() {
        long w = r.uniform(1, cfg.warehouses() - 1);
        return w >= homeW ? w + 1 : w;
    }

    private TpccRequest newOrder() {
        long d = district();
        long cid = customer();
        int n = r.uniformInt(5, NewOrder.MAX_LINES);
        n = Math.min(n, cfg.items());
        long[] items = new long[n];
        long[] supply = new long[n];
        long[] qty = new long[n];
        for (int i = 0; i < n; i++) {
            long item;
            boolean dup;
            do {
                item = r.nuRand(8191, 1, cfg.items(), c.olIId());
                dup = false;
                for (int j = 0; j < i; j++) {
                    dup |= items[j] == item;
                }
            } while (dup);
            items[i] = item;
            supply[i] = newOrderRemote < 0 && cfg.warehouses() > 1 && r.percent(1) ? otherWarehouse() : homeW;
            qty[i] = r.uniform(1, 10);
        }
        if (newOrderRemote > 0 && cfg.warehouses() > 1 && r.percent(newOrderRemote)) {
            supply[r.uniformInt(0, n - 1)] = otherWarehouse();
        }
        return new TpccRequest(NewOrder.NAME, NewOrder.inputs(homeW, d, cid, items, supply, qty, clock.getAsLong()),
                null);
    }

    private TpccRequest payment() {
        long d = district();
        long cw = homeW;
        long cd = d;
        if (cfg.warehouses() > 1 && paymentRemote > 0 && r.percent(paymentRemote)) {
            cw = otherWarehouse();
            cd = district();
        }
        long cid = customer();
        double amount = r.fixed(2, 1.0, 5000.0);
        long seq = ((long) index << 32) | ++historyCounter;
        return new TpccRequest(Payment.NAME, Payment.inputs(homeW, d, cw, cd, cid, amount, seq, clock.getAsLong()),
                null);
    }

    private TpccRequest orderStatus() {
        long d = district();
        long cid = customer();
        return new TpccRequest(OrderStatus.NAME, OrderStatus.inputs(homeW, d, cid),
                (batchedReads ? OrderStatus.batchedBody(homeW, d, cid) : OrderStatus.body(homeW, d, cid))::apply);
    }

    private TpccRequest stockLevel() {
        long threshold = r.uniform(10, 20);
        if (stockLevelDistricts > 1) {
            return new TpccRequest(StockLevel.NAME, StockLevel.inputs(homeW, stockLevelD, threshold),
                    t -> scanDistricts(t, 0, threshold, 0L));
        }
        return new TpccRequest(StockLevel.NAME, StockLevel.inputs(homeW, stockLevelD, threshold),
                (batchedReads ? StockLevel.batchedBody(homeW, stockLevelD, threshold)
                        : StockLevel.body(homeW, stockLevelD, threshold))::apply);
    }

    /**
     * stock_level over {@link #stockLevelDistricts} districts, one after the other in one transaction: the
     * client's district and the following ones, wrapping into the next warehouses; completes with the sum of the
     * low-stock counts.
     */
    private java.util.concurrent.CompletableFuture<Long> scanDistricts(org.tebaldi.core.client.Transaction t, int i,
                                                                      long threshold, long acc) {
        if (i == stockLevelDistricts) {
            return java.util.concurrent.CompletableFuture.completedFuture(acc);
        }
        long k = (homeW - 1) * TpccConfig.DISTRICTS + (stockLevelD - 1) + i;
        long w = (k / TpccConfig.DISTRICTS) % cfg.warehouses() + 1;
        long d = k % TpccConfig.DISTRICTS + 1;
        return (batchedReads ? StockLevel.batchedBody(w, d, threshold) : StockLevel.body(w, d, threshold)).apply(t)
                .thenCompose(n -> scanDistricts(t, i + 1, threshold, acc + n));
    }

    /**
     * How many districts each stock_level scans (1: TPC-C's one; DST's evaluation, NSDI 2021 §5.1, uses 20); returns
     * this.
     *
     * @throws IllegalArgumentException if {@code n} is below 1
     */
    public TpccClient stockLevelDistricts(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("stockLevelDistricts must be at least 1, got " + n);
        }
        this.stockLevelDistricts = n;
        return this;
    }

    /**
     * COCO's remote shares (Lu et al. VLDB 2021, §7.1: 10% of new_order and 15% of payment transactions are
     * multi-partition): {@code newOrderPercent} of new_order transactions get one line supplied by another
     * warehouse (the rest none), {@code paymentPercent} of payments are by a customer of another warehouse. No
     * effect with one warehouse. Returns this.
     *
     * @throws IllegalArgumentException if a share is outside 0..100
     */
    public TpccClient remote(int newOrderPercent, int paymentPercent) {
        if (newOrderPercent < 0 || newOrderPercent > 100 || paymentPercent < 0 || paymentPercent > 100) {
            throw new IllegalArgumentException("remote shares must be 0..100 per cent, got new_order "
                    + newOrderPercent + ", payment " + paymentPercent);
        }
        this.newOrderRemote = newOrderPercent;
        this.paymentRemote = paymentPercent;
        return this;
    }

    /**
     * Whether the interactive read-only transactions issue each table's reads together
     * ({@link StockLevel#batchedBody}, {@link OrderStatus#batchedBody}) rather than one by one; returns this.
     */
    public TpccClient batchedReads(boolean on) {
        this.batchedReads = on;
        return this;
    }
}
