package org.tebaldi.core.proc;

import org.tebaldi.core.model.Row;

/**
 * One execution of a stored procedure, suspended at every data operation so the coordinator never blocks
 * (docs/architecture.md, "Runtime"): the TC calls {@link #next} with the previous operation's result row until it gets
 * {@link ProcStep.Done} or {@link ProcStep.Abort} — or, for a batched run, {@link #resume} with the previous batch's
 * results. Single-threaded.
 */
public interface ProcRun {
    /**
     * Runs until the next data operation or the end.
     *
     * @param lastResult result row of the operation issued by the previous step (null for the first call, for
     *                   writes and deletes, and when the row is absent)
     * @throws ProcedureException on a runtime error in the procedure (bad cast, index out of bounds, loop bound
     *                            exceeded); the TC aborts the transaction as non-retryable
     */
    ProcStep next(Row lastResult);

    /**
     * Batched execution (a run started with {@link Procedure#startBatched}): runs until it needs the result of an
     * operation it issued, reaches the end, or has {@value #MAX_BATCH} operations ready, and returns them as one
     * {@link ProcStep.Batch}; operations are not sent one by one. Writes never wait; a read waits only when a later
     * expression uses its row. Then {@link ProcStep.Done} or {@link ProcStep.Abort} (a user abort drops the batch).
     *
     * @param results result rows of the previous batch's operations, in order (empty for the first call)
     * @throws ProcedureException on a runtime error in the procedure
     * @throws IllegalStateException if the run is not batched or {@code results} does not match the batch
     */
    default ProcStep resume(java.util.List<Row> results) {
        throw new IllegalStateException("not a batched run");
    }

    /** Operations in one batch at most. */
    int MAX_BATCH = 64;
}
