package org.tebaldi.core.client;

import java.util.concurrent.CompletableFuture;

/**
 * A transaction committed (commit notification, dissertation §4.5.4). {@link #durable()} completes later, when
 * its commit is persistent (at once when durability is off).
 *
 * @param txnId    the id of the committed attempt
 * @param outputs  a stored procedure's outputs (empty for interactive transactions)
 * @param durable  the durable notification
 */
public record CommitInfo(long txnId, java.util.Map<String, Object> outputs, CompletableFuture<Void> durable) {
}
