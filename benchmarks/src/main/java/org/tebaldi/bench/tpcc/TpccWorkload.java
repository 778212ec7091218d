package org.tebaldi.bench.tpcc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.Shifts;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;

/**
 * TPC-C as an experiment workload (docs/experiments.md, dissertation §4.6): bridges {@link TpccBenchmark}'s loader,
 * clients and consistency conditions 1–4 to the runner's workload interface.
 */
public final class TpccWorkload implements Workload {
    private final TpccBenchmark tpcc;
    private final boolean batchedReads;
    /** Remote shares in per cent ({@link TpccClient#remote}), or null for the specification's. */
    private int[] remote;
    /** Districts each stock_level scans ({@link TpccClient#stockLevelDistricts}). */
    private int stockLevelDistricts = 1;
    /** The mix of each phase of {@link #shifts} (phase 0: the config's). */
    private TpccMix[] mixes;
    private Shifts shifts = Shifts.NONE;

    /** TPC-C with batched multi-key reads in order_status and stock_level (the default). */
    public TpccWorkload(TpccConfig cfg) {
        this(cfg, true);
    }

    /**
     * @param batchedReads stock_level and order_status issue each table's reads together instead of one by one
     *                     (workload option {@code batchedReads})
     */
    public TpccWorkload(TpccConfig cfg, boolean batchedReads) {
        this.tpcc = new TpccBenchmark(cfg);
        this.batchedReads = batchedReads;
    }

    /**
     * COCO's remote shares for every client ({@link TpccClient#remote}): workload options {@code newOrderRemote}
     * and {@code paymentRemote}, per cent. Returns this.
     *
     * @throws IllegalArgumentException if a share is outside 0..100
     */
    /** Districts every client's stock_level scans ({@link TpccClient#stockLevelDistricts}); returns this. */
    public TpccWorkload stockLevelDistricts(int n) {
        this.stockLevelDistricts = n;
        return this;
    }

    public TpccWorkload remote(int newOrderPercent, int paymentPercent) {
        if (newOrderPercent < 0 || newOrderPercent > 100 || paymentPercent < 0 || paymentPercent > 100) {
            throw new IllegalArgumentException("remote shares must be 0..100 per cent, got new_order "
                    + newOrderPercent + ", payment " + paymentPercent);
        }
        this.remote = new int[]{newOrderPercent, paymentPercent};
        return this;
    }

    /**
     * Shifts the mix during the run: phase {@code i} of {@code s} draws from {@code perPhase[i]}; every mix's types
     * must be in the config's mix (load with {@link TpccMix#HOT_ITEM} if any phase uses it). Returns this.
     *
     * @throws IllegalArgumentException for a count of mixes that does not match the shifts, or a type the database
     *                                  does not have
     */
    public TpccWorkload shifts(TpccMix[] perPhase, Shifts s) {
        if (perPhase.length != s.size() + 1) {
            throw new IllegalArgumentException("need " + (s.size() + 1) + " mixes, got " + perPhase.length);
        }
        for (TpccMix m : perPhase) {
            if (!tpcc.config().mix().types().containsAll(m.types())) {
                throw new IllegalArgumentException("mix " + m + " has types the loaded mix "
                        + tpcc.config().mix() + " lacks");
            }
        }
        this.mixes = perPhase.clone();
        this.shifts = s;
        return this;
    }

    @Override
    public Shifts shifts() {
        return shifts;
    }

    /** The underlying benchmark. */
    public TpccBenchmark benchmark() {
        return tpcc;
    }

    @Override
    public String name() {
        return tpcc.name();
    }

    @Override
    public Database database() {
        return tpcc.database();
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        TpccLoader l = tpcc.loader();
        l.expectedRowsPerTable().forEach(loader::expect);
        l.load(loader::load, (done, total) -> progress.report("tpcc", done, total));
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        TpccClient c = tpcc.newClient(index, seed).batchedReads(batchedReads).stockLevelDistricts(stockLevelDistricts);
        if (remote != null) {
            c.remote(remote[0], remote[1]);
        }
        if (mixes != null) {
            return () -> c.next(mixes[shifts.phase()]).asTxnRequest();
        }
        return () -> c.next().asTxnRequest();
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot snapshot) {
        TpccSchema s = tpcc.schema();
        ConsistencyReport r = tpcc.consistency().check(snapshot::get,
                (table, visitor) -> snapshot.forEach(s.catalog().table(table).name(), visitor));
        String summary = r.summary(5);
        if (r.ok()) {
            return ConsistencyResult.ok("TPC-C consistency conditions 1-4 hold (" + r.rowsScanned() + " rows scanned)");
        }
        List<String> problems = new ArrayList<>();
        for (ConsistencyReport.Violation v : r.violations()) {
            problems.add(v.toString());
        }
        return ConsistencyResult.violated(summary, problems);
    }
}
