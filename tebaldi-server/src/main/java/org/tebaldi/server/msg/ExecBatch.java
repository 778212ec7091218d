package org.tebaldi.server.msg;

import org.tebaldi.core.txn.Op;
import org.tebaldi.core.runtime.cost.CostUnits;

/**
 * TC → DS, execution phase of a batched stored procedure: several operations of one transaction, executed at the
 * data server one after the other in this order (each through every CC level, as one {@link ExecRequest} would
 * be), answered with one {@link ExecReplies} once the last finished or one failed. Carries the same per-level
 * metadata as an {@link ExecRequest}.
 *
 * @param opIds the operations' ids, same length as {@code ops}
 */
public record ExecBatch(TxnHeader header, int[] opIds, Op[] ops, Object[] meta) implements CostUnits {
    /** Work units: the operations carried. */
    @Override
    public int costUnits() {
        return ops.length;
    }

    /** @throws IllegalArgumentException if the arrays differ in length or are empty */
    public ExecBatch {
        if (opIds.length != ops.length || ops.length == 0) {
            throw new IllegalArgumentException("a batch needs one id per operation and at least one operation");
        }
    }

    /** The {@code i}-th operation as a single request. */
    public ExecRequest request(int i) {
        return new ExecRequest(header, opIds[i], ops[i], meta);
    }
}
