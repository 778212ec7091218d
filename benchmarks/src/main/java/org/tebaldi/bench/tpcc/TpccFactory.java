package org.tebaldi.bench.tpcc;

import org.tebaldi.bench.workload.Shifts;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadFactory;
import org.tebaldi.bench.workload.WorkloadOptions;

/**
 * Creates the TPC-C workload from {@code workload: {name: tpcc, warehouses: 10, mix: standard}}. Options:
 * {@code warehouses} (default 10), {@code mix} ({@code standard}, {@code hot_item} (§4.6.3) or
 * {@code new_order_payment} (COCO's 50/50 mix)), {@code newOrderRemote} and {@code paymentRemote} (COCO's remote
 * shares in per cent, 0..100: new_order transactions with one line from another warehouse, payments by another
 * warehouse's customer; both absent: the spec's 1% of lines and 15% of payments), and, to scale a
 * run down, {@code items} (default 100,000), {@code customersPerDistrict} (3,000) and {@code ordersPerDistrict}
 * (3,000), plus {@code seed} for the loaded data (default 1), and {@code batchedReads} (default true, false with
 * {@code roundTrips: per-operation}: order_status and stock_level read each table's rows together, one request per
 * data server; false: one by one),
 * {@code stockLevelDistricts} (default 1, up to 100: districts each stock_level scans, the client's and the next
 * ones, wrapping into the following warehouses — DST's TPC-C, NSDI 2021 §5.1, uses 20), and the mix {@code
 * read_heavy} (79% read-only, {@link TpccMix#READ_HEAVY}); {@code shift} changes the mix during the run ({@code
 * shift: [{at: 30m, mix: hot_item}]}, {@link Shifts}).
 */
public final class TpccFactory implements WorkloadFactory {
    @Override
    public String name() {
        return "tpcc";
    }

    @Override
    public String description() {
        return "TPC-C adapted to a key-value store (options: warehouses, mix, items, customersPerDistrict,"
                + " ordersPerDistrict, seed, batchedReads, newOrderRemote, paymentRemote, stockLevelDistricts)";
    }

    @Override
    public Workload create(WorkloadOptions o) {
        Phases p = phases(o);
        TpccMix[] mixes = p.mixes();
        TpccMix loaded = java.util.Arrays.asList(mixes).contains(TpccMix.HOT_ITEM) ? TpccMix.HOT_ITEM : mixes[0];
        TpccConfig c = TpccConfig.spec(o.getInt("warehouses", 10, 1, 10_000))
                .withMix(loaded)
                .withItems(o.getInt("items", TpccConfig.SPEC_ITEMS, 100, 10_000_000))
                .withCustomersPerDistrict(o.getInt("customersPerDistrict", TpccConfig.SPEC_CUSTOMERS, 10, 1_000_000))
                .withOrdersPerDistrict(o.getInt("ordersPerDistrict", TpccConfig.SPEC_ORDERS, 10, 1_000_000))
                .withSeed(o.getLong("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE));
        boolean perOperation = org.tebaldi.bench.workload.ExecutionModes.perOperation(o);
        TpccWorkload w = new TpccWorkload(c, o.getBoolean("batchedReads", !perOperation));
        w.stockLevelDistricts(o.getInt("stockLevelDistricts", 1, 1, 100));
        if (mixes.length > 1) {
            w.shifts(mixes, p.shifts());
        }
        if (o.has("newOrderRemote") || o.has("paymentRemote")) {
            w.remote(o.getInt("newOrderRemote", 10, 0, 100), o.getInt("paymentRemote", 15, 0, 100));
        }
        return w;
    }

    private static final String[] MIXES = {"standard", "hot_item", "new_order_payment", "read_heavy"};

    /** The mix of each phase of {@code shifts}. */
    private record Phases(TpccMix[] mixes, Shifts shifts) {
    }

    /**
     * The mix of each phase: {@code mix}, then each {@code shift} entry's (e.g. {@code shift: [{at: 30m, mix:
     * hot_item}]}). A run that shifts to or from hot_item registers it and loads {@code item_stats} from the start.
     */
    private static Phases phases(WorkloadOptions o) {
        TpccMix base = TpccMix.parse(o.getString("mix", "standard", MIXES));
        Shifts shifts = Shifts.read(o, java.util.Set.of("mix"));
        TpccMix[] m = new TpccMix[shifts.size() + 1];
        m[0] = base;
        for (int i = 0; i < shifts.size(); i++) {
            WorkloadOptions s = shifts.options(i);
            m[i + 1] = TpccMix.parse(s.getString("mix", m[i].name().toLowerCase(), MIXES));
            s.rejectUnread();
        }
        return new Phases(m, shifts);
    }
}
