package org.tebaldi.bench.driver;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.txn.TxnAbortedException;

/**
 * Runs one attempt of a {@link TxnRequest}: a stored-procedure call, or begin → body → commit for an interactive
 * request. If the body fails with anything but an abort, the attempt aborts the transaction and fails with the
 * body's exception. The request's outcome listener, if any, hears how it ended. Never blocks.
 */
final class Attempt {
    private Attempt() {
    }

    /**
     * @param priority wait-die priority, the first attempt's begin time in µs (the same on every retry)
     * @return completes with the commit, or exceptionally (see {@link #cause})
     */
    static CompletableFuture<CommitInfo> run(TxnClient client, TxnRequest r, long priority) {
        CompletableFuture<CommitInfo> f = r.isProcedure() ? client.call(r.type(), r.inputs(), priority)
                : client.begin(r.type(), r.inputs(), priority).thenCompose(t -> body(t, r)
                .handle((v, e) -> e)
                .thenCompose(e -> e == null ? t.commit() : abandon(t, cause(e))));
        return r.onEnd() == null ? f : f.whenComplete((ci, e) -> r.ended(e == null ? null : cause(e)));
    }

    private static CompletableFuture<?> body(Transaction t, TxnRequest r) {
        try {
            CompletableFuture<?> f = r.body().apply(t);
            return f != null ? f : CompletableFuture.failedFuture(
                    new IllegalStateException("the body of " + r.type() + " returned null instead of a future"));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static CompletableFuture<CommitInfo> abandon(Transaction t, Throwable e) {
        if (e instanceof TxnAbortedException) {
            return CompletableFuture.failedFuture(e);
        }
        return t.abort().handle((v, x) -> null).thenCompose(v -> CompletableFuture.failedFuture(e));
    }

    /** The exception behind {@link CompletionException}/{@link ExecutionException} wrappers. */
    static Throwable cause(Throwable e) {
        Throwable c = e;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }
}
