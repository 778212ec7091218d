package org.tebaldi.bench.tpcc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.txn.TxnAbortedException;

/** How the test drivers run one attempt of a {@link TpccRequest} (the contract described on that record). */
final class Attempts {
    private Attempts() {
    }

    /**
     * One attempt: a procedure call, or begin + body + commit (abort if the body fails for another reason than an
     * abort). Completes with the procedure's outputs map or the body's result.
     */
    static CompletableFuture<Object> attempt(TxnClient api, TpccRequest req, long priority) {
        if (req.isProcedure()) {
            return api.call(req.type(), req.inputs(), priority).thenApply(ci -> ci.outputs());
        }
        return api.begin(req.type(), req.inputs(), priority).thenCompose(t -> {
            CompletableFuture<?> body;
            try {
                body = req.body().apply(t);
            } catch (RuntimeException ex) {
                body = CompletableFuture.failedFuture(ex);
            }
            return body.handle((v, e) -> new Object[] {v, e}).thenCompose(p -> finish(t, p[0], (Throwable) p[1]));
        });
    }

    private static CompletableFuture<Object> finish(Transaction t, Object value, Throwable error) {
        if (error == null) {
            return t.commit().thenApply(ci -> value);
        }
        Throwable c = unwrap(error);
        if (c instanceof TxnAbortedException) {
            return CompletableFuture.failedFuture(c);
        }
        return t.abort().handle((x, y) -> null).thenCompose(x -> CompletableFuture.failedFuture(c));
    }

    /** True if {@code e} (possibly wrapped) is a retryable abort. */
    static boolean retryable(Throwable e) {
        return unwrap(e) instanceof TxnAbortedException a && a.retryable();
    }

    /** The cause under {@link CompletionException} wrappers. */
    static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
