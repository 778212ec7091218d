package org.tebaldi.core.txn;

/**
 * A transaction attempt ended in abort. {@code retryable} is true for concurrency-control aborts (lock timeout,
 * write-write conflict, pivot, cascading abort), false for errors in the transaction itself (bad key, write in a
 * read-only group, user abort).
 */
public class TxnAbortedException extends RuntimeException {
    private final boolean retryable;
    private final long txnId;

    public TxnAbortedException(long txnId, String reason, boolean retryable) {
        super(reason, null, false, false);
        this.txnId = txnId;
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }

    public long txnId() {
        return txnId;
    }
}
