package org.tebaldi.core.client;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.RowUpdate;

/**
 * A {@link Transaction} that passes every call, unchanged, to the transaction it wraps; a subclass overrides the
 * calls it changes (e.g. records the commit, or issues batches one operation per round trip). Results, errors and
 * the wrapped transaction's threading are those of the wrapped transaction.
 */
public abstract class ForwardingTransaction implements Transaction {
    private final Transaction delegate;

    /** @param delegate the transaction every call goes to */
    protected ForwardingTransaction(Transaction delegate) {
        this.delegate = delegate;
    }

    /** The wrapped transaction. */
    protected final Transaction delegate() {
        return delegate;
    }

    @Override
    public long id() {
        return delegate.id();
    }

    @Override
    public CompletableFuture<Row> execute(Op op) {
        return delegate.execute(op);
    }

    @Override
    public CompletableFuture<List<Row>> executeAll(List<Op> ops) {
        return delegate.executeAll(ops);
    }

    @Override
    public CompletableFuture<List<Row>> readAll(String table, List<long[]> keys) {
        return delegate.readAll(table, keys);
    }

    @Override
    public CompletableFuture<List<Row>> readAll(List<Key> keys) {
        return delegate.readAll(keys);
    }

    @Override
    public CompletableFuture<Row> read(String table, long... key) {
        return delegate.read(table, key);
    }

    @Override
    public CompletableFuture<Row> readForUpdate(String table, long... key) {
        return delegate.readForUpdate(table, key);
    }

    @Override
    public CompletableFuture<Void> write(Row row, long... key) {
        return delegate.write(row, key);
    }

    @Override
    public CompletableFuture<Row> update(String table, RowUpdate update, long... key) {
        return delegate.update(table, update, key);
    }

    @Override
    public CompletableFuture<Row> upsert(Row ifAbsent, RowUpdate update, long... key) {
        return delegate.upsert(ifAbsent, update, key);
    }

    @Override
    public CompletableFuture<Void> delete(String table, long... key) {
        return delegate.delete(table, key);
    }

    @Override
    public CompletableFuture<CommitInfo> commit() {
        return delegate.commit();
    }

    @Override
    public CompletableFuture<Void> abort() {
        return delegate.abort();
    }
}
