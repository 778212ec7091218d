package org.tebaldi.bench.ycsb;

import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadFactory;
import org.tebaldi.bench.workload.WorkloadOptions;

/**
 * Creates YCSB from {@code workload: {name: ycsb, records: 100000, theta: 0.9, readRatio: 0.9, opsPerTxn: 16}}.
 * Options and defaults: {@code records} (100,000), {@code theta} (0.9, Zipf skew in [0, 2]), {@code readRatio}
 * (0.9), {@code opsPerTxn} (16, as in Sundial), {@code fields} (10), {@code fieldLength} (100), {@code writeTheta}
 * (the skew of updated keys; default: {@code theta}), and COCO's multi-partition knob: {@code distributed} (per cent
 * of transactions that span partitions, absent: keys from the whole table) with {@code partitions} (default 2; set it
 * to {@code cluster.dataServers}) — see {@link YcsbConfig} for the ranges.
 */
public final class YcsbFactory implements WorkloadFactory {
    @Override
    public String name() {
        return "ycsb";
    }

    @Override
    public String description() {
        return "YCSB transactions on one table (options: records, theta, readRatio, opsPerTxn, fields, fieldLength,"
                + " writeTheta, distributed, partitions)";
    }

    @Override
    public Workload create(WorkloadOptions o) {
        int ops = o.getInt("opsPerTxn", 16, 1, 64);
        int records = o.getInt("records", 100_000, 2 * ops, 100_000_000);
        double theta = o.getDouble("theta", 0.9, 0, ZipfianGenerator.MAX_THETA);
        double read = o.getDouble("readRatio", 0.9, 0, 1);
        int fields = o.getInt("fields", 10, 1, 20);
        int length = o.getInt("fieldLength", 100, 1, 10_000);
        int partitions = 1;
        int distributed = -1;
        if (o.has("distributed") || o.has("partitions")) {
            distributed = o.getInt("distributed", 0, 0, 100);
            partitions = o.getInt("partitions", 2, 1, Math.max(1, Math.min(1_024, records / (2 * ops))));
            if (distributed > 0 && partitions < 2) {
                throw o.error("partitions", "distributed transactions need at least 2 partitions, found "
                        + partitions, "set workload.partitions to the cluster's dataServers (2 or more)");
            }
        }
        double writeTheta = o.getDouble("writeTheta", theta, 0, ZipfianGenerator.MAX_THETA);
        return new YcsbWorkload(new YcsbConfig(records, theta, read, ops, fields, length, writeTheta, partitions,
                distributed));
    }
}
