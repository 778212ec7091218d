package org.tebaldi.server.msg;

/** Client → TC: abort an interactive transaction (user abort). */
public record AbortTxn(long txnId) {
}
