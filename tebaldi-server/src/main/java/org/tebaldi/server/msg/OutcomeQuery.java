package org.tebaldi.server.msg;

/**
 * DS → the transaction's TC: "what became of {@code txnId}?" — sent when the data server has heard nothing about a
 * transaction it holds for the transaction timeout ({@code ClusterConfig#withTxnTimeout}), the termination protocol
 * of two-phase commit. The coordinator answers with the {@link CommitRequest} again if it committed the
 * transaction, with an {@link AbortRequest} if it is neither live nor committed there (presumed abort), and not at
 * all while the transaction is live (its own timeout ends it).
 */
public record OutcomeQuery(long txnId) {
}
