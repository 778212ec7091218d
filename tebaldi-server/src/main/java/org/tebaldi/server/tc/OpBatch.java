package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Op;

/**
 * A batch of a stored procedure's operations at its coordinator ({@link org.tebaldi.core.proc.ProcStep.Batch}):
 * operations pass the TC parts' {@code beforeOp} one after the other in program order and are staged; staged
 * operations go out together, one message per data server; results are collected by position. An operation a TC
 * part must not see before the earlier ones finished (e.g. runtime pipelining entering a new step) waits until
 * every earlier one replied. Coordinator thread only.
 */
final class OpBatch {
    final List<Op> ops;
    final Row[] results;
    final int firstOpId;
    /** Index of the next operation to pass the TC parts. */
    int next;
    /** Operations (by index) that passed the TC parts and are not sent yet. */
    final List<Integer> staged = new ArrayList<>();
    /** Operations sent whose reply has not arrived. */
    int inFlight;

    OpBatch(List<Op> ops, int firstOpId) {
        this.ops = ops;
        this.results = new Row[ops.size()];
        this.firstOpId = firstOpId;
    }

    /** Whether {@code opId} belongs to this batch. */
    boolean has(int opId) {
        return opId >= firstOpId && opId < firstOpId + ops.size();
    }
}
