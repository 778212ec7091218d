package org.tebaldi.bench.listappend;

import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadFactory;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.core.history.listappend.ListAppendTxns;

/**
 * Creates {@link ListAppendWorkload} from {@code workload: {name: list-append, keysPerTable: 10, opsPerTxn: 4,
 * readOnlyShare: 0.2, batchShare: 0.25}}: {@code keysPerTable} 1..1,000,000 (default 10),
 * {@code opsPerTxn} (the most operations per transaction; each draws 1..opsPerTxn) 1..100 (default 4),
 * {@code readOnlyShare} and {@code batchShare} 0..1 (defaults 0.2 and 0.25). What clients observe is always
 * recorded (memory grows with the run, as do the lists themselves: a workload for checking, not for long runs).
 */
public final class ListAppendFactory implements WorkloadFactory {
    @Override
    public String name() {
        return ListAppendWorkload.NAME;
    }

    @Override
    public String description() {
        return "appends to and reads of lists, checked black-box Elle-style (options: keysPerTable, opsPerTxn, "
                + "readOnlyShare, batchShare)";
    }

    @Override
    public Workload create(WorkloadOptions options) {
        int keys = options.getInt("keysPerTable", 10, 1, 1_000_000);
        int ops = options.getInt("opsPerTxn", 4, 1, 100);
        double ro = options.getDouble("readOnlyShare", 0.2, 0, 1);
        double batch = options.getDouble("batchShare", 0.25, 0, 1);
        return new ListAppendWorkload(new ListAppendTxns.Options(keys, ops, ro, 0, batch));
    }
}
