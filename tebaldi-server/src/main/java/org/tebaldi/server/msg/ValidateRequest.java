package org.tebaldi.server.msg;

/** TC → each participant DS, validation phase (one per DS whatever the tree depth). */
public record ValidateRequest(long txnId, Object[] meta) {
}
