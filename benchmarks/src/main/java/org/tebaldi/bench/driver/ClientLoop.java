package org.tebaldi.bench.driver;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.txn.TxnAbortedException;

/**
 * One logical closed-loop client: runs its source's transactions one after the other without think time. A
 * retryable abort is retried (same request, same wait-die priority) after a back-off on the driver's clock (real
 * timer or virtual time); other failures count as errors and the client moves on. Continuations run on whatever
 * thread completed the future (the cluster's); nothing here blocks.
 */
final class ClientLoop {
    private final TxnClient client;
    private final ClientSource source;
    private final Backoff backoff;
    private final Metrics metrics;
    private final RunControl control;
    private final DriverClock clock;

    ClientLoop(TxnClient client, ClientSource source, Backoff backoff, Metrics metrics, RunControl control,
               DriverClock clock) {
        this.client = client;
        this.source = source;
        this.backoff = backoff;
        this.metrics = metrics;
        this.control = control;
        this.clock = clock;
    }

    /** Starts the loop (returns at once). */
    void start() {
        next();
    }

    private void next() {
        if (control.stopping()) {
            control.finished();
            return;
        }
        TxnRequest r;
        try {
            r = source.next();
        } catch (RuntimeException e) {
            control.fail(e);
            control.finished();
            return;
        }
        long first = clock.nanos();
        attempt(r, first, first / 1000, 0);
    }

    private void attempt(TxnRequest r, long first, long priority, int aborts) {
        CompletableFuture<?> f;
        try {
            f = Attempt.run(client, r, priority);
        } catch (RuntimeException x) {
            f = CompletableFuture.failedFuture(x);
        }
        // A future completed already (e.g. an unknown type) would run done() on this stack and recurse through
        // next(); such completions go through the timer instead.
        AtomicBoolean attaching = new AtomicBoolean(true);
        f.whenComplete((ok, e) -> {
            if (attaching.get()) {
                defer(() -> safely(() -> done(r, first, priority, aborts, e)));
            } else {
                safely(() -> done(r, first, priority, aborts, e));
            }
        });
        attaching.set(false);
    }

    private void safely(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException | Error x) {
            control.fail(x);
            control.finished();
        }
    }

    private void defer(Runnable step) {
        try {
            clock.execute(step);
        } catch (RejectedExecutionException x) {
            control.finished();
        }
    }

    private void done(TxnRequest r, long first, long priority, int aborts, Throwable e) {
        long now = clock.nanos();
        if (e == null) {
            metrics.commit(r.type(), first, now);
            next();
            return;
        }
        Throwable c = Attempt.cause(e);
        if (!(c instanceof TxnAbortedException a) || !a.retryable()) {
            metrics.error(r.type(), now, c);
            next();
            return;
        }
        metrics.abort(r.type(), now, a.getMessage());
        if (control.stopping()) {
            control.finished();
            return;
        }
        long delay = backoff.delayMicros(aborts + 1, a.getMessage());
        try {
            clock.schedule(() -> retry(r, first, priority, aborts + 1), delay);
        } catch (RejectedExecutionException x) {
            control.finished();
        }
    }

    private void retry(TxnRequest r, long first, long priority, int aborts) {
        if (control.stopping()) {
            control.finished();
            return;
        }
        attempt(r, first, priority, aborts);
    }
}
