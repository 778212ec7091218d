package org.tebaldi.core.txn;

/**
 * Why a concurrency-control part aborted a transaction. {@code retryable} distinguishes contention (retry
 * helps) from errors (retry repeats them).
 *
 * @param message   human-readable cause, e.g. "lock wait timeout on t3[1, 2] after 50 ms (2pl node 2)"
 * @param retryable true for contention aborts
 */
public record AbortReason(String message, boolean retryable) {
    /** A contention abort (retryable). */
    public static AbortReason conflict(String message) {
        return new AbortReason(message, true);
    }

    /** A non-retryable error abort. */
    public static AbortReason error(String message) {
        return new AbortReason(message, false);
    }
}
