package org.tebaldi.bench.burn;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.ForwardingTransaction;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.txn.Inputs;

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
    private final class Recorded extends ForwardingTransaction {
        private final LongSupplier clock;
        private final int epochOf;

        Recorded(Transaction t, LongSupplier clock, int epochOf) {
            super(t);
            this.clock = clock;
            this.epochOf = epochOf;
        }

        @Override
        public CompletableFuture<CommitInfo> commit() {
            return delegate().commit().thenApply(ci -> record(ci, clock, epochOf));
        }
    }
}
