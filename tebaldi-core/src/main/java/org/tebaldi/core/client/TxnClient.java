package org.tebaldi.core.client;

import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.txn.Inputs;

/**
 * Client API of a Tebaldi cluster (docs/architecture.md, "Transactions"), built on futures; never blocks. Failed attempts complete
 * exceptionally with {@link org.tebaldi.core.txn.TxnAbortedException}; retrying is the caller's choice (the
 * benchmark driver retries with back-off).
 */
public interface TxnClient {
    /**
     * Begins an interactive transaction of {@code type} (the start phase runs before the future completes).
     *
     * @param priority wait-die priority: the first attempt's begin time in µs; pass the same value on retries
     */
    CompletableFuture<Transaction> begin(String type, Inputs inputs, long priority);

    /** Runs a stored procedure of {@code type} as one transaction, including its commit. */
    CompletableFuture<CommitInfo> call(String type, Inputs inputs, long priority);
}
