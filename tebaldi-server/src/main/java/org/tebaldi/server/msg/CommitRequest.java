package org.tebaldi.server.msg;

/** TC → each participant DS: apply the commit (chained, leaf first); {@code meta} per level or null. */
public record CommitRequest(long txnId, Object[] meta) {
}
