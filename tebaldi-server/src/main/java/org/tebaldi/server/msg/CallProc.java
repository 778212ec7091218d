package org.tebaldi.server.msg;

import org.tebaldi.core.txn.Inputs;

/** Client → TC: run a stored procedure as one transaction, commit included. */
public record CallProc(long reqId, int typeId, Inputs inputs, long priority) {
}
