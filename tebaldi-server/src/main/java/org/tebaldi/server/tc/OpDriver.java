package org.tebaldi.server.tc;

/**
 * Where a transaction's operations come from and where their results go — one implementation per execution mode
 * (docs/architecture.md, "A phase's path through the tree"): {@link InteractiveDriver} (the client sends operations, one at a time
 * or together, and commits) and {@link ProcedureDriver} (the coordinator runs a stored procedure, batched or one
 * operation at a time). Both hand their operations to the one {@link OpExecutor}. Coordinator thread only.
 */
interface OpDriver {
    /** The transaction's start phase passed: issue its first operations, or tell the client it began. */
    void started(TcTxnImpl t);

    /** Every reply of the batch in flight arrived ({@link OpBatch#results}); it is no longer {@code t.batch}. */
    void batchDone(TcTxnImpl t, OpBatch b);
}
