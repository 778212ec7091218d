package org.tebaldi.server.sim;

import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.cluster.Cluster;

/**
 * Random read/write mixes over a small hot key space (issue: "random read/write mixes over a small hot key
 * space"): update types {@code rw1} and {@code rw2} run 1–5 random operations each (read, read-for-update,
 * write, read-modify-write, delete, re-insert); {@code ro} reads 1–5 random keys. Serializability is checked on
 * the recorded history.
 */
public final class MixWorkload implements SimWorkload {
    private final int keys;
    private final Database db;
    private final TableSchema kv;

    public MixWorkload(int keys) {
        this.keys = keys;
        Catalog c = new Catalog();
        kv = c.add("kv", 1, -1, false, Catalog.longCol("v"));
        db = new Database(c);
        db.interactive("rw1", false, java.util.List.of("kv"));
        db.interactive("rw2", false, java.util.List.of("kv"));
        db.interactive("ro", true, java.util.List.of("kv"));
    }

    @Override
    public Database database() {
        return db;
    }

    @Override
    public void load(Cluster cluster) {
        for (int i = 0; i < keys; i++) {
            cluster.load(Key.of(kv, i), kv.row((long) i));
        }
    }

    @Override
    public CompletableFuture<Boolean> attempt(TxnClient client, Random rnd, long priority) {
        int p = rnd.nextInt(10);
        String type = p < 4 ? "rw1" : p < 8 ? "rw2" : "ro";
        int ops = 1 + rnd.nextInt(5);
        long[] plan = new long[ops * 2];
        for (int i = 0; i < ops; i++) {
            plan[2 * i] = rnd.nextInt(keys);
            plan[2 * i + 1] = type.equals("ro") ? 0 : rnd.nextInt(12);
        }
        long stamp = rnd.nextInt(1_000_000);
        return Attempts.outcome(client.begin(type, Inputs.NONE, priority)
                .thenCompose(t -> run(t, plan, 0, stamp).thenCompose(x -> t.commit())));
    }

    private CompletableFuture<?> run(Transaction t, long[] plan, int i, long stamp) {
        if (i * 2 == plan.length) {
            return CompletableFuture.completedFuture(null);
        }
        Key k = Key.of(kv, plan[2 * i]);
        int kind = (int) plan[2 * i + 1];
        Op op;
        if (kind < 4) {
            op = Op.read(k);
        } else if (kind < 6) {
            op = Op.readForUpdate(k);
        } else if (kind < 9) {
            op = Op.write(k, kv.row(stamp + i));
        } else if (kind < 11) {
            op = Op.update(k, r -> r.with(0, (Long) r.get(0) + 1));
        } else {
            op = Op.delete(k);
        }
        return t.execute(op).thenCompose(r -> run(t, plan, i + 1, stamp));
    }
}
