package org.tebaldi.core.proc;

import java.util.Map;
import org.tebaldi.core.txn.Op;

/**
 * What a running stored procedure asks for next ({@link ProcRun#next}, {@link ProcRun#resume}): issue one data
 * operation (or, batched, several), finish with outputs, or abort (a user abort written in the procedure).
 */
public sealed interface ProcStep {
    /** Issue {@code op}; resume with its result row. */
    record Issue(Op op) implements ProcStep {
    }

    /**
     * Batched execution: issue {@code ops}, in program order (ops on one key must execute in this order); resume
     * with their result rows, in the same order ({@link ProcRun#resume}). None of them needs another's result.
     */
    record Batch(java.util.List<Op> ops) implements ProcStep {
    }

    /** The procedure finished; {@code outputs} are its {@code output(...)} values by name. */
    record Done(Map<String, Object> outputs) implements ProcStep {
    }

    /** The procedure aborted itself with {@code reason}. */
    record Abort(String reason) implements ProcStep {
    }
}
