package org.tebaldi.server.msg;

import java.util.Map;

/**
 * TC → client: the attempt committed or aborted (the commit notification, dissertation §4.5.4). {@code reqId} is
 * the {@link CallProc}'s or the {@link BeginTxn}'s; for aborts {@code reason} and {@code retryable} say why.
 * {@code durable}: the commit is already durable (always without durability); otherwise a {@link Durable.Txns}
 * message follows.
 */
public record TxnEnded(long reqId, long txnId, boolean committed, String reason, boolean retryable,
                       Map<String, Object> outputs, boolean durable) {
    /** An outcome without durability (a commit is durable at once). */
    public TxnEnded(long reqId, long txnId, boolean committed, String reason, boolean retryable,
                    Map<String, Object> outputs) {
        this(reqId, txnId, committed, reason, retryable, outputs, true);
    }
}
