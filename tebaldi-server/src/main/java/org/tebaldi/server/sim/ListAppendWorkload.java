package org.tebaldi.server.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.cluster.Cluster;

/**
 * A multi-table list-append workload: tables {@code la} and {@code lb} hold lists (a string column of
 * comma-separated values); update types {@code t_a}, {@code t_b}, {@code t_c} declare the access order
 * {@code [la, lb]} and issue 1–4 operations in that order, so runtime pipelining runs two steps; {@code t_ro}
 * only reads. An append is a read followed by a write, a read-for-update followed by a write, a server-side
 * {@code update} (which writes nothing on an absent row) or an {@code upsert} (which inserts it); one key of each
 * table is not loaded, so appends also insert. Some operations go out together with {@code executeAll} (reads of
 * a read-only attempt across both tables with {@code readAll}); a few attempts end with a user abort. Every appended
 * value is unique, so the recorded history checks every read.
 */
public final class ListAppendWorkload implements SimWorkload {
    private final int keys;
    private final Database db;
    private final TableSchema la;
    private final TableSchema lb;
    private long nextValue;

    /** @param keys rows per table (fewer = more contention) */
    public ListAppendWorkload(int keys) {
        this.keys = keys;
        Catalog c = new Catalog();
        la = c.add("la", 1, -1, false, Catalog.stringCol("list"));
        lb = c.add("lb", 1, -1, false, Catalog.stringCol("list"));
        db = new Database(c);
        for (String t : List.of("t_a", "t_b", "t_c")) {
            db.interactive(t, false, List.of("la", "lb"));
        }
        db.interactive("t_ro", true, List.of("la", "lb"));
    }

    @Override
    public Database database() {
        return db;
    }

    @Override
    public void load(Cluster cluster) {
        for (int i = 0; i < keys; i++) {
            cluster.load(Key.of(la, i), la.row(""));
            cluster.load(Key.of(lb, i), lb.row(""));
        }
    }

    /**
     * One planned operation: table, key, kind (0 read, 1 read+write, 2 read-for-update+write, 3 update, 4 upsert).
     */
    private record Step(TableSchema table, long key, int kind, long value) {
    }

    @Override
    public CompletableFuture<Boolean> attempt(TxnClient client, Random rnd, long priority) {
        int p = rnd.nextInt(10);
        String type = p < 3 ? "t_a" : p < 6 ? "t_b" : p < 8 ? "t_c" : "t_ro";
        int n = 1 + rnd.nextInt(4);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TableSchema t = rnd.nextBoolean() ? la : lb;
            int kind = type.equals("t_ro") ? 0 : rnd.nextInt(5);
            steps.add(new Step(t, rnd.nextInt(keys + 1), kind, ++nextValue)); // key 'keys' starts absent
        }
        steps.sort((x, y) -> Integer.compare(x.table().id(), y.table().id())); // declared order: la, lb
        boolean batch = rnd.nextInt(4) == 0;
        boolean userAbort = rnd.nextInt(20) == 0;
        return Attempts.outcome(client.begin(type, Inputs.NONE, priority).thenCompose(t ->
                run(t, steps, 0, batch).thenCompose(x -> userAbort
                        ? t.abort().thenApply(y -> null) : t.commit().thenApply(y -> null))));
    }

    private CompletableFuture<?> run(Transaction t, List<Step> steps, int i, boolean batch) {
        if (i == steps.size()) {
            return CompletableFuture.completedFuture(null);
        }
        if (batch && i == 0 && steps.stream().allMatch(x -> x.kind() == 0)) {
            return t.readAll(steps.stream().map(x -> Key.of(x.table(), x.key())).toList());
        }
        Step s = steps.get(i);
        if (batch && s.kind() != 1 && s.kind() != 2) {
            // reads and server-side updates of one table that follow each other go out together
            List<Op> ops = new ArrayList<>();
            int j = i;
            while (j < steps.size() && steps.get(j).table() == s.table() && steps.get(j).kind() != 1
                    && steps.get(j).kind() != 2) {
                ops.add(op(steps.get(j)));
                j++;
            }
            int next = j;
            return t.executeAll(ops).thenCompose(r -> run(t, steps, next, batch));
        }
        Key k = Key.of(s.table(), s.key());
        CompletableFuture<?> f = switch (s.kind()) {
            case 0, 3 -> t.execute(op(s));
            case 1 -> t.execute(Op.read(k)).thenCompose(r -> t.execute(Op.write(k, append(s.table(), r, s.value()))));
            default -> t.execute(Op.readForUpdate(k))
                    .thenCompose(r -> t.execute(Op.write(k, append(s.table(), r, s.value()))));
        };
        return f.thenCompose(r -> run(t, steps, i + 1, batch));
    }

    private Op op(Step s) {
        Key k = Key.of(s.table(), s.key());
        if (s.kind() == 0) {
            return Op.read(k);
        }
        long v = s.value();
        TableSchema table = s.table();
        return s.kind() == 3 ? Op.update(k, r -> append(table, r, v))
                : Op.upsert(k, table.row(Long.toString(v)), r -> append(table, r, v));
    }

    private static Row append(TableSchema table, Row old, long v) {
        String list = old == null ? "" : old.getString("list");
        return table.row(list.isEmpty() ? Long.toString(v) : list + "," + v);
    }
}
