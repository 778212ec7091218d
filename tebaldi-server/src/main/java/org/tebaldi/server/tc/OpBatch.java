package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;

/**
 * A batch of a transaction's operations at its coordinator — whatever the execution mode: one interactive
 * operation, an interactive {@code executeAll}, or a stored procedure's batch ({@link
 * org.tebaldi.core.proc.ProcStep.Batch}). Operations pass the TC parts' {@code beforeOp} one after the other in
 * program order and are staged; staged operations go out together, one message per data server; results are
 * collected by position ({@link OpExecutor}). Coordinator thread only.
 */
final class OpBatch {
    final List<Op> ops;
    final Row[] results;
    final int firstOpId;
    /** Whether the batch is one interactive operation (answered with {@code OpDone}, not {@code OpsDone}). */
    final boolean single;
    /** Index of the next operation to pass the TC parts. */
    int next;
    /** Operations (by index) that passed the TC parts and are not sent yet. */
    final List<Integer> staged = new ArrayList<>();
    /** Operations sent whose reply has not arrived. */
    int inFlight;
    /**
     * Of those staged or in flight, the ones that go through the CC tree (not reads of replicated tables, which no
     * mechanism sees and which report no dependency).
     */
    int ccPending;

    OpBatch(List<Op> ops, int firstOpId, boolean single) {
        this.ops = ops;
        this.results = new Row[ops.size()];
        this.firstOpId = firstOpId;
        this.single = single;
    }

    /** Whether {@code opId} belongs to this batch. */
    boolean has(int opId) {
        return opId >= firstOpId && opId < firstOpId + ops.size();
    }

    /** The operation with id {@code opId} (which {@link #has}). */
    Op op(int opId) {
        return ops.get(opId - firstOpId);
    }
}
