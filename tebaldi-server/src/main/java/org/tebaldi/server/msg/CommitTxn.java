package org.tebaldi.server.msg;

/** Client → TC: commit an interactive transaction. */
public record CommitTxn(long txnId) {
}
