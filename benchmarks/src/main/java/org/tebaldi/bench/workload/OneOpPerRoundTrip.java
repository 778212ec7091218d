package org.tebaldi.bench.workload;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.ForwardingTransaction;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;

/**
 * An interactive transaction that sends one operation per round trip ({@code workload.roundTrips: per-operation},
 * {@link ExecutionModes}; dissertation §5.6: order_status and stock_level "left as interactive transactions"): every
 * call goes to the wrapped transaction as it is, but {@link #executeAll} and {@link #readAll} issue their operations
 * one after the other, each after the previous one's reply ({@link Transaction#inTurn}), instead of together.
 */
final class OneOpPerRoundTrip extends ForwardingTransaction {

    OneOpPerRoundTrip(Transaction t) {
        super(t);
    }

    @Override
    public CompletableFuture<List<Row>> executeAll(List<Op> ops) {
        return Transaction.inTurn(ops, this::execute);
    }

    @Override
    public CompletableFuture<List<Row>> readAll(String table, List<long[]> keys) {
        return Transaction.inTurn(keys, k -> read(table, k));
    }

    @Override
    public CompletableFuture<List<Row>> readAll(List<Key> keys) {
        return executeAll(keys.stream().map(Op::read).toList());
    }
}
