package org.tebaldi.core.txn;

/**
 * A transaction attempt ended in abort — or its outcome was lost. {@code retryable} is true for
 * concurrency-control aborts (lock timeout, write-write conflict, pivot, cascading abort), false for errors in the
 * transaction itself (bad key, write by a type declared read-only, user abort). {@link #outcomeUnknown()} is true
 * when the client cannot know whether the transaction committed (its coordinator failed while it ran or committed,
 * or a commit was not yet durable when it failed): the attempt may have taken effect, so retrying it blindly may
 * apply it twice.
 */
public class TxnAbortedException extends RuntimeException {
    private final boolean retryable;
    private final long txnId;
    private final boolean outcomeUnknown;

    /** An abort the coordinator decided: the transaction did not commit. */
    public TxnAbortedException(long txnId, String reason, boolean retryable) {
        this(txnId, reason, retryable, false);
    }

    /**
     * @param outcomeUnknown true if the transaction may have committed (never retryable then)
     * @throws IllegalArgumentException if both {@code retryable} and {@code outcomeUnknown}
     */
    public TxnAbortedException(long txnId, String reason, boolean retryable, boolean outcomeUnknown) {
        super(reason, null, false, false);
        if (retryable && outcomeUnknown) {
            throw new IllegalArgumentException("an attempt of unknown outcome is not retryable");
        }
        this.txnId = txnId;
        this.retryable = retryable;
        this.outcomeUnknown = outcomeUnknown;
    }

    /** A failure after which the client cannot know whether transaction {@code txnId} (0 if unknown) committed. */
    public static TxnAbortedException outcomeUnknown(long txnId, String reason) {
        return new TxnAbortedException(txnId, reason, false, true);
    }

    public boolean retryable() {
        return retryable;
    }

    /**
     * True if the transaction may have committed: its coordinator failed before the client learnt the outcome (or,
     * for a durable notification, before the commit was durable). False for every abort the coordinator decided.
     */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }

    public long txnId() {
        return txnId;
    }
}
