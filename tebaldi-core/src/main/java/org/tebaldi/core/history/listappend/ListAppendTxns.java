package org.tebaldi.core.history.listappend;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.TxnAbortedException;

/**
 * The list-append workload's transactions, for any set of type names (so it runs under any tree's shape). Tables
 * {@value #TABLE_A} and {@value #TABLE_B} hold lists: a string column {@value #COLUMN} of comma-separated longs.
 * Every type declares the access order {@code [la, lb]} and issues its 1..{@code maxOps} operations in that order, so
 * runtime pipelining runs two steps; with {@link Options#tables()} = 3 a third table {@value #TABLE_C} follows, the
 * order is {@code [la, lb, lc]} and a transaction that touches {@code la} and {@code lc} only skips a step. An update type's operation is a read, or an append done one of four ways: a
 * read then a write, a read-for-update then a write, a server-side {@code update} (which writes nothing on an absent
 * row) or an {@code upsert} (which inserts it); a read-only type only reads. Keys {@code 0..keysPerTable-1} are
 * loaded empty and key {@code keysPerTable} starts absent, so appends also insert. Some attempts send runs of reads
 * and server-side appends of one table together with {@code executeAll} (a read-only plan: all its reads, across
 * both tables, with {@code readAll}); a few end with a user abort. Every value is
 * unique (one counter per instance). What each attempt observed goes to a {@link ListAppendRecorder}; keys are
 * named {@code la/3}.
 *
 * <p>Thread-safe: attempts may run concurrently from any threads; nothing blocks.
 */
public final class ListAppendTxns {
    /** Table names and the list column. */
    public static final String TABLE_A = "la";
    public static final String TABLE_B = "lb";
    /** The third table, with {@link Options#tables()} = 3. */
    public static final String TABLE_C = "lc";
    public static final String COLUMN = "list";

    /**
     * Workload options.
     *
     * @param keysPerTable   loaded keys per table, at least 1 (fewer = more contention)
     * @param maxOps         operations per transaction are drawn from 1..maxOps, at least 1
     * @param readOnlyShare  share of attempts of a read-only type (when both kinds of type exist), 0..1
     * @param userAbortShare share of attempts that end with a user abort, 0..1
     * @param batchShare     share of attempts that send operations together with executeAll, 0..1
     * @param tables         tables, 2 ({@code la, lb}) or 3 ({@code la, lb, lc}: a transaction whose operations
     *                       miss {@code lb} skips a step of a runtime pipeline)
     */
    public record Options(int keysPerTable, int maxOps, double readOnlyShare, double userAbortShare,
                          double batchShare, int tables) {
        /** @throws IllegalArgumentException for a value out of range */
        public Options {
            if (keysPerTable < 1 || maxOps < 1) {
                throw new IllegalArgumentException("keysPerTable and maxOps must be at least 1, got " + keysPerTable
                        + " and " + maxOps);
            }
            if (tables < 2 || tables > 3) {
                throw new IllegalArgumentException("tables must be 2 or 3, got " + tables);
            }
            for (double s : new double[] {readOnlyShare, userAbortShare, batchShare}) {
                if (!(s >= 0 && s <= 1)) {
                    throw new IllegalArgumentException("shares must be in 0..1, got " + s);
                }
            }
        }

        /** Two tables. */
        public Options(int keysPerTable, int maxOps, double readOnlyShare, double userAbortShare, double batchShare) {
            this(keysPerTable, maxOps, readOnlyShare, userAbortShare, batchShare, 2);
        }

        /** These options with {@code n} tables. */
        public Options withTables(int n) {
            return new Options(keysPerTable, maxOps, readOnlyShare, userAbortShare, batchShare, n);
        }

        /** 5 keys per table, up to 4 operations, 20% read-only, 5% user aborts, 25% batched, two tables. */
        public static Options defaults() {
            return new Options(5, 4, 0.2, 0.05, 0.25);
        }
    }

    /**
     * One planned operation on {@code table[key]}: kind 0 read, 1 read+write, 2 read-for-update+write, 3 server-side
     * update, 4 upsert (the appended value is drawn when the operation is issued).
     */
    public record Step(TableSchema table, long key, int kind) {
    }

    /** One planned attempt: its type, operations (in table order), whether batched, whether it ends in abort. */
    public record Plan(String type, List<Step> steps, boolean batch, boolean userAbort, long instance) {
    }

    private final List<String> updateTypes = new ArrayList<>();
    private final List<String> readOnlyTypes = new ArrayList<>();
    private final String instanceInput;
    private final Options options;
    private final ListAppendRecorder recorder;
    private final Database db;
    private final TableSchema la;
    private final TableSchema lb;
    /** The tables in declared (access) order. */
    private final List<TableSchema> tables;
    private final AtomicLong nextValue = new AtomicLong();

    /** {@link #ListAppendTxns(List, Set, String, Options, ListAppendRecorder)} without an instance input. */
    public ListAppendTxns(List<String> types, Set<String> readOnly, Options options, ListAppendRecorder recorder) {
        this(types, readOnly, null, options, recorder);
    }

    /**
     * @param types         every transaction type name, in a fixed order (at least one)
     * @param readOnly      the names among {@code types} declared read-only
     * @param instanceInput the name of one input every type takes (for a tree with {@code instanceBy}; its value is
     *                      0 or 1 at random), or null for none
     * @throws IllegalArgumentException if {@code types} is empty, or {@code readOnly} names an unknown type
     */
    public ListAppendTxns(List<String> types, Set<String> readOnly, String instanceInput, Options options,
                          ListAppendRecorder recorder) {
        if (types.isEmpty() || !types.containsAll(readOnly)) {
            throw new IllegalArgumentException("list-append needs at least one type, and read-only types among them;"
                    + " got " + types + " with read-only " + readOnly);
        }
        for (String t : types) {
            (readOnly.contains(t) ? readOnlyTypes : updateTypes).add(t);
        }
        this.instanceInput = instanceInput;
        this.options = options;
        this.recorder = recorder;
        Catalog c = new Catalog();
        la = c.add(TABLE_A, 1, -1, false, Catalog.stringCol(COLUMN));
        lb = c.add(TABLE_B, 1, -1, false, Catalog.stringCol(COLUMN));
        tables = options.tables() == 2 ? List.of(la, lb)
                : List.of(la, lb, c.add(TABLE_C, 1, -1, false, Catalog.stringCol(COLUMN)));
        db = new Database(c);
        String[] params = instanceInput == null ? new String[0] : new String[] {instanceInput};
        List<String> order = tables.stream().map(TableSchema::name).toList();
        for (String t : types) {
            db.interactive(t, readOnly.contains(t), order, params);
        }
    }

    /** The database: the two tables and every type. */
    public Database database() {
        return db;
    }

    /** The recorder attempts write to. */
    public ListAppendRecorder recorder() {
        return recorder;
    }

    /** The options. */
    public Options options() {
        return options;
    }

    /** Writes the initial rows: keys {@code 0..keysPerTable-1} of both tables, empty lists. */
    public void load(BiConsumer<Key, Row> loader) {
        for (int i = 0; i < options.keysPerTable(); i++) {
            for (TableSchema t : tables) {
                loader.accept(Key.of(t, i), t.row(""));
            }
        }
    }

    /** Every key an attempt may touch (the loaded ones and the absent one of each table). */
    public List<Key> keys() {
        List<Key> keys = new ArrayList<>();
        for (TableSchema t : tables) {
            for (int i = 0; i <= options.keysPerTable(); i++) {
                keys.add(Key.of(t, i));
            }
        }
        return keys;
    }

    /** The history's name of {@code key}, e.g. {@code la/3}. */
    public String keyName(Key key) {
        return db.catalog().table(key.table()).name() + "/" + key.part(0);
    }

    /** The list a row holds; empty for an absent row or an empty list. */
    public static List<Long> list(Row row) {
        String s = row == null ? "" : row.getString(COLUMN);
        List<Long> l = new ArrayList<>();
        if (!s.isEmpty()) {
            for (String v : s.split(",")) {
                l.add(Long.parseLong(v));
            }
        }
        return l;
    }

    /** Draws one attempt's plan. */
    public Plan plan(Random rnd) {
        boolean ro = updateTypes.isEmpty()
                || !readOnlyTypes.isEmpty() && rnd.nextDouble() < options.readOnlyShare();
        List<String> pool = ro ? readOnlyTypes : updateTypes;
        String type = pool.get(rnd.nextInt(pool.size()));
        int n = 1 + rnd.nextInt(options.maxOps());
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TableSchema t = tables.size() == 2 ? (rnd.nextBoolean() ? la : lb) : tables.get(rnd.nextInt(tables.size()));
            steps.add(new Step(t, rnd.nextInt(options.keysPerTable() + 1), ro ? 0 : rnd.nextInt(5)));
        }
        steps.sort((x, y) -> Integer.compare(x.table().id(), y.table().id())); // declared order: la, lb(, lc)
        return new Plan(type, List.copyOf(steps), rnd.nextDouble() < options.batchShare(),
                rnd.nextDouble() < options.userAbortShare(), rnd.nextInt(2));
    }

    /** The inputs of a plan's type (the instance input, if any). */
    public Inputs inputs(Plan p) {
        return instanceInput == null ? Inputs.NONE : Inputs.of(p.instance());
    }

    /**
     * Runs one attempt: begin, the planned operations, then commit (or a user abort), recorded as one attempt.
     *
     * @param priority wait-die priority (the first attempt's begin time, µs; the same on retries)
     * @return true if it committed; false if it aborted (also for a user abort) or its outcome is unknown; fails
     *         only for an error that is not an abort (e.g. a write by a read-only type)
     */
    public CompletableFuture<Boolean> attempt(TxnClient client, Random rnd, long priority) {
        Plan p = plan(rnd);
        ListAppendRecorder.Attempt rec = recorder.begin();
        return client.begin(p.type(), inputs(p), priority)
                .thenCompose(t -> run(t, p, rec).thenCompose(x -> p.userAbort()
                        ? t.abort().thenApply(y -> false) : t.commit().thenApply(ci -> {
                            ci.durable().thenRun(rec::durable);
                            return true;
                        })))
                .handle((ok, e) -> {
                    if (e == null) {
                        rec.end(ok ? Outcome.COMMITTED : Outcome.ABORTED);
                        return ok;
                    }
                    Throwable c = cause(e);
                    rec.end(outcomeOf(c));
                    if (c instanceof TxnAbortedException a && (a.retryable() || a.outcomeUnknown())) {
                        return false;
                    }
                    throw c instanceof RuntimeException re ? re : new CompletionException(c);
                });
    }

    /**
     * What the client knows after an attempt failed with {@code failure}: unknown for an
     * {@link TxnAbortedException#outcomeUnknown()} abort or a failure that is not an abort, else aborted.
     */
    public static Outcome outcomeOf(Throwable failure) {
        Throwable c = cause(failure);
        return c instanceof TxnAbortedException a && !a.outcomeUnknown() ? Outcome.ABORTED : Outcome.UNKNOWN;
    }

    private static Throwable cause(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /**
     * Issues a plan's operations on a begun transaction (without commit or abort), recording what was observed.
     * A value is drawn for each append when it is issued, so a retried plan appends new values.
     */
    public CompletableFuture<?> run(Transaction t, Plan p, ListAppendRecorder.Attempt rec) {
        return run(t, p.steps(), 0, p.batch(), rec);
    }

    private CompletableFuture<?> run(Transaction t, List<Step> steps, int i, boolean batch,
                                     ListAppendRecorder.Attempt rec) {
        if (i == steps.size()) {
            return CompletableFuture.completedFuture(null);
        }
        if (batch && i == 0 && steps.stream().allMatch(x -> x.kind() == 0)) {
            // a batched read-only plan reads across both tables at once
            List<Key> keys = steps.stream().map(x -> Key.of(x.table(), x.key())).toList();
            return t.readAll(keys).thenAccept(rows -> {
                for (int g = 0; g < keys.size(); g++) {
                    rec.read(keyName(keys.get(g)), list(rows.get(g)));
                }
            });
        }
        Step s = steps.get(i);
        if (batch && s.kind() != 1 && s.kind() != 2) {
            // reads and server-side appends of one table that follow each other go out together
            List<Step> group = new ArrayList<>();
            int j = i;
            while (j < steps.size() && steps.get(j).table() == s.table() && steps.get(j).kind() != 1
                    && steps.get(j).kind() != 2) {
                group.add(steps.get(j));
                j++;
            }
            List<Op> ops = new ArrayList<>();
            long[] values = new long[group.size()];
            for (int g = 0; g < group.size(); g++) {
                values[g] = group.get(g).kind() == 0 ? 0 : nextValue.incrementAndGet();
                ops.add(op(group.get(g), values[g]));
            }
            int next = j;
            return t.executeAll(ops).whenComplete((rows, e) -> {
                for (int g = 0; g < group.size(); g++) {
                    observed(group.get(g), values[g], rows == null ? null : rows.get(g), e, rec);
                }
            }).thenCompose(rows -> run(t, steps, next, batch, rec));
        }
        Key k = Key.of(s.table(), s.key());
        String name = keyName(k);
        CompletableFuture<?> f;
        if (s.kind() == 1 || s.kind() == 2) {
            f = t.execute(s.kind() == 1 ? Op.read(k) : Op.readForUpdate(k)).thenCompose(r -> {
                List<Long> l = list(r);
                rec.read(name, l);
                long v = nextValue.incrementAndGet();
                rec.append(name, v);
                List<Long> next = new ArrayList<>(l);
                next.add(v);
                return t.execute(Op.write(k, s.table().row(join(next))));
            });
        } else {
            long v = s.kind() == 0 ? 0 : nextValue.incrementAndGet();
            f = t.execute(op(s, v)).whenComplete((r, e) -> observed(s, v, r, e, rec));
        }
        return f.thenCompose(r -> run(t, steps, i + 1, batch, rec));
    }

    /** The operation of a read (0), update (3) or upsert (4) step. */
    private static Op op(Step s, long v) {
        Key k = Key.of(s.table(), s.key());
        TableSchema table = s.table();
        return switch (s.kind()) {
            case 0 -> Op.read(k);
            case 3 -> Op.update(k, new AppendUpdate(table, v));
            default -> Op.upsert(k, table.row(Long.toString(v)), new AppendUpdate(table, v));
        };
    }

    /**
     * Records, in program order, what a read, update or upsert returned: a read's list; an update's append (which
     * happened only if the row existed) and new list; an upsert's append and new list. If the operation failed
     * ({@code error} not null), an update's or upsert's append is recorded alone: it may have been applied before
     * the transaction aborted (or ended with an unknown outcome), and a read that observes it must be caught.
     */
    private void observed(Step s, long v, Row r, Throwable error, ListAppendRecorder.Attempt rec) {
        String name = keyName(Key.of(s.table(), s.key()));
        if (error != null) {
            if (s.kind() != 0) {
                rec.append(name, v);
            }
            return;
        }
        if (s.kind() == 4 || s.kind() == 3 && r != null) {
            rec.append(name, v);
        }
        rec.read(name, list(r));
    }


    private static String join(List<Long> l) {
        StringBuilder b = new StringBuilder();
        for (long v : l) {
            b.append(b.length() == 0 ? "" : ",").append(v);
        }
        return b.toString();
    }

    /**
     * Reads every key in one transaction of a read-only type (else the first type), retrying aborts and attempts of
     * unknown outcome, and records each list as the key's final read. Call after the run quiesced.
     *
     * @return completes when the reads are recorded; fails if the read fails with anything but a retryable abort
     */
    public CompletableFuture<Void> finalReads(TxnClient client) {
        String type = readOnlyTypes.isEmpty() ? updateTypes.get(0) : readOnlyTypes.get(0);
        List<Key> keys = keys();
        Inputs in = instanceInput == null ? Inputs.NONE : Inputs.of(0L);
        return client.begin(type, in, 0).thenCompose(t -> t.readAll(keys).thenCompose(rows -> t.commit()
                .thenAccept(ci -> {
                    for (int i = 0; i < keys.size(); i++) {
                        recorder.finalRead(keyName(keys.get(i)), list(rows.get(i)));
                    }
                }))).handle((v, e) -> e == null ? CompletableFuture.<Void>completedFuture(null)
                : cause(e) instanceof TxnAbortedException a && (a.retryable() || a.outcomeUnknown()) ? finalReads(client)
                : CompletableFuture.<Void>failedFuture(cause(e))).thenCompose(f -> f);
    }
}
