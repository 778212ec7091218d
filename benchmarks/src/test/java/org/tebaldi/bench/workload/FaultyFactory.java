package org.tebaldi.bench.workload;

import java.util.List;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.Inputs;

/**
 * Test workload {@code faulty}: one table {@code t}, one interactive type {@code boom} reading {@code t[0]}. Options:
 * {@code rows} (default 10); {@code throws} (default true): clients' {@code next()} throws — a bug in workload code
 * that must fail the run clearly; {@code consistent} (default true): false makes the consistency check fail.
 */
public final class FaultyFactory implements WorkloadFactory {
    @Override
    public String name() {
        return "faulty";
    }

    @Override
    public String description() {
        return "test workload whose clients throw";
    }

    @Override
    public Workload create(WorkloadOptions options) {
        int rows = options.getInt("rows", 10, 1, 1000);
        boolean throwing = options.getBoolean("throws", true);
        boolean consistent = options.getBoolean("consistent", true);
        Catalog c = new Catalog();
        var t = c.add("t", 1, 0, false, Catalog.longCol("v"));
        Database db = new Database(c);
        db.interactive("boom", false);
        return new Workload() {
            @Override
            public String name() {
                return "faulty";
            }

            @Override
            public Database database() {
                return db;
            }

            @Override
            public void load(DataLoader loader, Progress progress) {
                loader.expect("t", rows);
                for (int i = 0; i < rows; i++) {
                    loader.load(Key.of(t, i), t.row(0L));
                }
            }

            @Override
            public ClientSource newClient(int index, long seed) {
                return () -> {
                    if (throwing) {
                        throw new IllegalStateException("workload bug in client " + index);
                    }
                    return TxnRequest.interactive("boom", Inputs.NONE, tx -> tx.read("t", 0));
                };
            }

            @Override
            public ConsistencyResult check(DatabaseSnapshot snapshot) {
                return consistent ? ConsistencyResult.ok("nothing to check")
                        : ConsistencyResult.violated("told to fail", List.of("condition 1 violated"));
            }
        };
    }
}
