package org.tebaldi.bench.driver;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnAbortedException;

/**
 * A fake cluster endpoint for driver tests: stored-procedure calls complete asynchronously after {@code delayMicros}
 * on its own thread. Type {@code flaky} aborts (retryable) the first {@code abortsBeforeCommit} attempts of each
 * request (told apart by the {@link Inputs} instance) and then commits; {@code broken} always fails with a
 * non-retryable abort; {@code ok} commits at once. Records every call.
 */
final class ScriptedClient implements TxnClient, AutoCloseable {
    /** One recorded call. */
    record Call(String type, Inputs inputs, long priority, long nanos) {
    }

    private final ScheduledExecutorService exec = Executors.newSingleThreadScheduledExecutor();
    private final long delayMicros;
    private final int abortsBeforeCommit;
    private final Map<Inputs, AtomicInteger> attempts = new ConcurrentHashMap<>();
    final List<Call> calls = new CopyOnWriteArrayList<>();

    ScriptedClient(long delayMicros, int abortsBeforeCommit) {
        this.delayMicros = delayMicros;
        this.abortsBeforeCommit = abortsBeforeCommit;
    }

    @Override
    public CompletableFuture<Transaction> begin(String type, Inputs inputs, long priority) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("procedures only"));
    }

    @Override
    public CompletableFuture<CommitInfo> call(String type, Inputs inputs, long priority) {
        calls.add(new Call(type, inputs, priority, System.nanoTime()));
        int n = attempts.computeIfAbsent(inputs, k -> new AtomicInteger()).incrementAndGet();
        CompletableFuture<CommitInfo> f = new CompletableFuture<>();
        exec.schedule(() -> {
            switch (type) {
                case "flaky" -> {
                    if (n <= abortsBeforeCommit) {
                        f.completeExceptionally(new TxnAbortedException(n, "scripted conflict", true));
                    } else {
                        f.complete(new CommitInfo(n, Map.of(), CompletableFuture.completedFuture(null)));
                    }
                }
                case "broken" -> f.completeExceptionally(new TxnAbortedException(n, "scripted error", false));
                default -> f.complete(new CommitInfo(n, Map.of(), CompletableFuture.completedFuture(null)));
            }
        }, delayMicros, TimeUnit.MICROSECONDS);
        return f;
    }

    @Override
    public void close() {
        exec.shutdownNow();
    }
}
