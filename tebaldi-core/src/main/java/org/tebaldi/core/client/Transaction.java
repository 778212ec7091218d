package org.tebaldi.core.client;

import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.RowUpdate;

/**
 * An interactive transaction (docs/architecture.md, "Transactions"): every call sends one operation to the coordinator and returns a
 * future; futures fail with {@link org.tebaldi.core.txn.TxnAbortedException} once the transaction aborted.
 * Operations may be issued without waiting for earlier ones; {@link #commit()} waits for outstanding ones.
 */
public interface Transaction {
    long id();

    /** Runs one operation; the future yields the row read (null for writes, deletes and absent rows). */
    CompletableFuture<Row> execute(Op op);

    /**
     * Runs several operations together, in order (ops on one key execute in this order); the coordinator sends
     * them in one message per data server instead of one round trip each. The default runs them one after the
     * other through {@link #execute}.
     *
     * @return the result rows in order (null for writes, deletes and absent rows); fails like {@link #execute}
     */
    default CompletableFuture<java.util.List<Row>> executeAll(java.util.List<Op> ops) {
        return inTurn(ops, this::execute);
    }

    /**
     * Reads several rows of {@code table} together ({@link #executeAll}); the default reads them one after the
     * other.
     *
     * @param keys primary keys, each as for {@link #read}
     * @return the rows in order, null where absent
     */
    default CompletableFuture<java.util.List<Row>> readAll(String table, java.util.List<long[]> keys) {
        return inTurn(keys, k -> read(table, k));
    }

    /**
     * Runs {@code call} on each of {@code items} in order, each after the previous one's future completed (one
     * round trip each): the default of {@link #executeAll} and {@link #readAll(String, java.util.List)}.
     *
     * @return the results in order; fails with the first call that fails (the later ones are not made)
     */
    static <T> CompletableFuture<java.util.List<Row>> inTurn(java.util.List<T> items,
            java.util.function.Function<T, CompletableFuture<Row>> call) {
        CompletableFuture<java.util.List<Row>> all = CompletableFuture.completedFuture(new java.util.ArrayList<>());
        for (T item : items) {
            all = all.thenCompose(l -> call.apply(item).thenApply(r -> {
                l.add(r);
                return l;
            }));
        }
        return all;
    }

    /**
     * Reads several rows, of any tables, together ({@link #executeAll}).
     *
     * @param keys the rows' addresses ({@link org.tebaldi.core.model.Key#of(org.tebaldi.core.model.TableSchema,
     *             long...)})
     * @return the rows in the order of {@code keys}, null where absent
     */
    default CompletableFuture<java.util.List<Row>> readAll(java.util.List<org.tebaldi.core.model.Key> keys) {
        return executeAll(keys.stream().map(Op::read).toList());
    }

    /** Reads a row of {@code table} by primary key; null if absent. */
    CompletableFuture<Row> read(String table, long... key);

    /** Reads with write intent (exclusive lock in lock-based mechanisms). */
    CompletableFuture<Row> readForUpdate(String table, long... key);

    /** Inserts or overwrites the row at {@code key} of the row's table. */
    CompletableFuture<Void> write(Row row, long... key);

    /** Read-modify-write at the data server; yields the new row (null if the row was absent). */
    CompletableFuture<Row> update(String table, RowUpdate update, long... key);

    /**
     * Insert-or-update at the data server ({@link Op#upsert}): writes {@code update.apply(row)} if the row at
     * {@code key} of {@code ifAbsent}'s table exists, else {@code ifAbsent}; yields the row written.
     */
    default CompletableFuture<Row> upsert(Row ifAbsent, RowUpdate update, long... key) {
        return execute(Op.upsert(org.tebaldi.core.model.Key.of(ifAbsent.table(), key), ifAbsent, update));
    }

    /** Deletes the row. */
    CompletableFuture<Void> delete(String table, long... key);

    /** Validates and commits; completes with the commit notification. */
    CompletableFuture<CommitInfo> commit();

    /** Aborts (a user abort); completes when the coordinator has processed it. */
    CompletableFuture<Void> abort();
}
