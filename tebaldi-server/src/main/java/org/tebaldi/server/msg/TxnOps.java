package org.tebaldi.server.msg;

import org.tebaldi.core.txn.Op;
import org.tebaldi.core.runtime.cost.CostUnits;

/**
 * Client → TC: several operations of an interactive transaction at once ({@code Transaction#executeAll}), with ids
 * {@code firstOpId}, {@code firstOpId + 1}, ...; executed like a stored procedure's batch — in order at each data
 * server, one message per data server — and answered with one {@link OpsDone}.
 */
public record TxnOps(long txnId, int firstOpId, Op[] ops) implements CostUnits {
    /** Work units: the operations carried. */
    @Override
    public int costUnits() {
        return ops.length;
    }
}
