package org.tebaldi.server.msg;

/**
 * TC → each participant DS, validation phase (one per DS whatever the tree depth). With durability, {@code writers}
 * is the number of data servers the transaction wrote at — the participant count its precommit logs carry
 * (dissertation §4.5.4) — else 0.
 */
public record ValidateRequest(long txnId, Object[] meta, int writers) {
    /** A request without durability. */
    public ValidateRequest(long txnId, Object[] meta) {
        this(txnId, meta, 0);
    }
}
