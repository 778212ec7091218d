package org.tebaldi.server.msg;

import java.util.Map;

/**
 * TC → client: the attempt committed or aborted. {@code reqId} is the {@link CallProc}'s or the
 * {@link BeginTxn}'s; for aborts {@code reason} and {@code retryable} say why.
 */
public record TxnEnded(long reqId, long txnId, boolean committed, String reason, boolean retryable,
                       Map<String, Object> outputs) {
}
