package org.tebaldi.bench.workload;

import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.RowUpdate;

/**
 * An interactive transaction that sends one operation per round trip ({@code workload.roundTrips: per-operation},
 * {@link ExecutionModes}; dissertation §5.6: order_status and stock_level "left as interactive transactions"): every
 * call goes to the wrapped transaction as it is, but {@link #executeAll} and {@link #readAll} issue their operations
 * one after the other, each after the previous one's reply ({@link Transaction}'s defaults), instead of together.
 */
final class OneOpPerRoundTrip implements Transaction {
    private final Transaction t;

    OneOpPerRoundTrip(Transaction t) {
        this.t = t;
    }

    @Override
    public long id() {
        return t.id();
    }

    @Override
    public CompletableFuture<Row> execute(Op op) {
        return t.execute(op);
    }

    @Override
    public CompletableFuture<Row> read(String table, long... key) {
        return t.read(table, key);
    }

    @Override
    public CompletableFuture<Row> readForUpdate(String table, long... key) {
        return t.readForUpdate(table, key);
    }

    @Override
    public CompletableFuture<Void> write(Row row, long... key) {
        return t.write(row, key);
    }

    @Override
    public CompletableFuture<Row> update(String table, RowUpdate update, long... key) {
        return t.update(table, update, key);
    }

    @Override
    public CompletableFuture<Row> upsert(Row ifAbsent, RowUpdate update, long... key) {
        return t.upsert(ifAbsent, update, key);
    }

    @Override
    public CompletableFuture<Void> delete(String table, long... key) {
        return t.delete(table, key);
    }

    @Override
    public CompletableFuture<CommitInfo> commit() {
        return t.commit();
    }

    @Override
    public CompletableFuture<Void> abort() {
        return t.abort();
    }
}
