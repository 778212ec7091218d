package org.tebaldi.server.msg;

import org.tebaldi.core.txn.Op;

/** Client → TC: one operation of an interactive transaction. */
public record TxnOp(long txnId, int opId, Op op) {
}
