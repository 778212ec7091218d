package org.tebaldi.server.msg;

import org.tebaldi.core.txn.Inputs;

/** Client → TC: begin an interactive transaction ({@code reqId} correlates the reply). */
public record BeginTxn(long reqId, int typeId, Inputs inputs, long priority) {
}
