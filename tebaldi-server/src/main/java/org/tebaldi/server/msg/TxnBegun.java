package org.tebaldi.server.msg;

/** TC → client: the interactive transaction started (its start phase ran). */
public record TxnBegun(long reqId, long txnId) {
}
