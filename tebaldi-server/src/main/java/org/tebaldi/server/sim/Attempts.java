package org.tebaldi.server.sim;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.tebaldi.core.txn.TxnAbortedException;

/** Helpers for workload attempts: map a retryable abort to {@code false}, keep real failures. */
public final class Attempts {
    private Attempts() {
    }

    public static CompletableFuture<Boolean> outcome(CompletableFuture<?> chain) {
        return chain.handle((v, e) -> {
            if (e == null) {
                return true;
            }
            Throwable c = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (c instanceof TxnAbortedException a && a.retryable()) {
                return false;
            }
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error er) {
                throw er;
            }
            throw new CompletionException(c);
        });
    }
}
