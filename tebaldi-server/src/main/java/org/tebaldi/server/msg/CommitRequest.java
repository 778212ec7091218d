package org.tebaldi.server.msg;

/**
 * TC → each participant DS: apply the commit (chained, leaf first); {@code meta} per level or null. With durability,
 * {@code epoch} is the transaction's global epoch id — the largest epoch its participants voted with; a server whose
 * current epoch is lower advances to it before any CC's commit phase (dissertation §4.5.4) — else 0.
 */
public record CommitRequest(long txnId, Object[] meta, long epoch) {
    /** A commit without durability. */
    public CommitRequest(long txnId, Object[] meta) {
        this(txnId, meta, 0);
    }
}
