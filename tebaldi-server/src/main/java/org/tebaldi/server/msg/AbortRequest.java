package org.tebaldi.server.msg;

/** TC → each participant DS: abort the transaction and release what it holds. */
public record AbortRequest(long txnId) {
}
