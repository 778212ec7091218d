package org.tebaldi.bench.chiller;

import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadFactory;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.bench.ycsb.ZipfianGenerator;

/**
 * Creates the skewed NewOrder workload from {@code workload: {name: skewed-neworder, warehouses: 4, items: 10000,
 * theta: 0.9, linesMin: 5, linesMax: 15, remoteLines: 1}} ({@link SkewedNewOrderWorkload}). {@code remoteLines} is
 * TPC-C's remote-warehouse knob for NewOrder (percent of lines supplied by another warehouse; the spec's 1).
 */
public final class SkewedNewOrderFactory implements WorkloadFactory {
    @Override
    public String name() {
        return "skewed-neworder";
    }

    @Override
    public String description() {
        return "TPC-C NewOrder with Zipf item popularity, hash-partitioned (options: warehouses, items, theta, "
                + "linesMin, linesMax, remoteLines)";
    }

    @Override
    public Workload create(WorkloadOptions o) {
        int w = o.getInt("warehouses", 4, 1, 10_000);
        int linesMin = o.getInt("linesMin", 5, 1, SkewedNewOrder.MAX_LINES);
        int linesMax = o.getInt("linesMax", 15, linesMin, SkewedNewOrder.MAX_LINES);
        int items = o.getInt("items", 10_000, linesMax, 10_000_000);
        double theta = o.getDouble("theta", 0.9, 0, ZipfianGenerator.MAX_THETA);
        double remote = o.getDouble("remoteLines", 1, 0, 100);
        return new SkewedNewOrderWorkload(new SkewedNewOrderWorkload.Config(w, items, theta, linesMin, linesMax,
                remote));
    }
}
