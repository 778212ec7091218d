package org.tebaldi.core.proc;

import org.tebaldi.core.model.Row;

/**
 * One execution of a stored procedure, suspended at every data operation so the coordinator never blocks
 * (DESIGN.md §3, §4): the TC calls {@link #next} with the previous operation's result row until it gets
 * {@link ProcStep.Done} or {@link ProcStep.Abort}. Single-threaded.
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
}
