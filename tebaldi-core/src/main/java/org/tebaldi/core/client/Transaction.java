package org.tebaldi.core.client;

import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.RowUpdate;

/**
 * An interactive transaction (DESIGN.md §4): every call sends one operation to the coordinator and returns a
 * future; futures fail with {@link org.tebaldi.core.txn.TxnAbortedException} once the transaction aborted.
 * Operations may be issued without waiting for earlier ones; {@link #commit()} waits for outstanding ones.
 */
public interface Transaction {
    long id();

    /** Runs one operation; the future yields the row read (null for writes, deletes and absent rows). */
    CompletableFuture<Row> execute(Op op);

    /** Reads a row of {@code table} by primary key; null if absent. */
    CompletableFuture<Row> read(String table, long... key);

    /** Reads with write intent (exclusive lock in lock-based mechanisms). */
    CompletableFuture<Row> readForUpdate(String table, long... key);

    /** Inserts or overwrites the row at {@code key} of the row's table. */
    CompletableFuture<Void> write(Row row, long... key);

    /** Read-modify-write at the data server; yields the new row (null if the row was absent). */
    CompletableFuture<Row> update(String table, RowUpdate update, long... key);

    /** Deletes the row. */
    CompletableFuture<Void> delete(String table, long... key);

    /** Validates and commits; completes with the commit notification. */
    CompletableFuture<CommitInfo> commit();

    /** Aborts (a user abort); completes when the coordinator has processed it. */
    CompletableFuture<Void> abort();
}
