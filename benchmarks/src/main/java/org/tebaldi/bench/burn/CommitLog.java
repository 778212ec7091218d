package org.tebaldi.bench.burn;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.RowUpdate;

/**
 * What the clients were told, whatever the workload: every acknowledged commit (its id and virtual time) and every
 * durable notification (the durability promise the burn run checks after a crash). {@link #wrap} puts it between a
 * workload and its client endpoint.
 */
final class CommitLog {
    private final Set<Long> committed = new HashSet<>();
    private final Set<Long> durable = new HashSet<>();
    private final Set<Long> lost = new HashSet<>();
    private long lastCommitMicros = -1;
    private int epoch;

    /** Starts a new cluster lifetime: commit times from now on are of the new runtime's clock. */
    void newEpoch() {
        epoch++;
        lastCommitMicros = -1;
    }

    /** Transactions whose commit was acknowledged. */
    Set<Long> committed() {
        return committed;
    }

    /** Transactions whose durable notification arrived. */
    Set<Long> durable() {
        return durable;
    }

    /** Transactions whose durable notification failed: their commit was lost in a recovery (clients told). */
    Set<Long> lost() {
        return lost;
    }

    /** Virtual time of the latest acknowledged commit of this cluster lifetime, µs; -1 if none. */
    long lastCommitMicros() {
        return lastCommitMicros;
    }

    /** {@code api} with every commit recorded against {@code clock} (virtual µs). */
    TxnClient wrap(TxnClient api, LongSupplier clock) {
        int e = epoch;
        return new TxnClient() {
            @Override
            public CompletableFuture<Transaction> begin(String type, Inputs inputs, long priority) {
                return api.begin(type, inputs, priority).thenApply(t -> new Recorded(t, clock, e));
            }

            @Override
            public CompletableFuture<CommitInfo> call(String type, Inputs inputs, long priority) {
                return api.call(type, inputs, priority).thenApply(ci -> record(ci, clock, e));
            }
        };
    }

    private CommitInfo record(CommitInfo ci, LongSupplier clock, int e) {
        if (e == epoch) {
            committed.add(ci.txnId());
            lastCommitMicros = clock.getAsLong();
            ci.durable().whenComplete((v, x) -> (x == null ? durable : lost).add(ci.txnId()));
        }
        return ci;
    }

    /** A transaction whose commit is recorded. */
    private final class Recorded implements Transaction {
        private final Transaction t;
        private final LongSupplier clock;
        private final int epochOf;

        Recorded(Transaction t, LongSupplier clock, int epochOf) {
            this.t = t;
            this.clock = clock;
            this.epochOf = epochOf;
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
        public CompletableFuture<List<Row>> executeAll(List<Op> ops) {
            return t.executeAll(ops);
        }

        @Override
        public CompletableFuture<List<Row>> readAll(String table, List<long[]> keys) {
            return t.readAll(table, keys);
        }

        @Override
        public CompletableFuture<List<Row>> readAll(List<org.tebaldi.core.model.Key> keys) {
            return t.readAll(keys);
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
            return t.commit().thenApply(ci -> record(ci, clock, epochOf));
        }

        @Override
        public CompletableFuture<Void> abort() {
            return t.abort();
        }
    }

}
