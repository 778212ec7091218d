package org.tebaldi.bench.driver;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleUnaryOperator;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.txn.Inputs;

/**
 * A fake endpoint whose throughput follows a script: every stored-procedure call commits after
 * {@code clients / rate(t)} seconds on its own timer thread, {@code t} the seconds since the client was made, so that
 * {@code clients} closed-loop clients commit about {@code rate(t)} txn/s. Nothing is recorded per call.
 */
final class RampingClient implements TxnClient, AutoCloseable {
    private final ScheduledExecutorService exec = Executors.newSingleThreadScheduledExecutor();
    private final long start = System.nanoTime();
    private final int clients;
    private final DoubleUnaryOperator rate;
    private final AtomicLong ids = new AtomicLong();

    /** @param rate target throughput, txn/s, by seconds since now */
    RampingClient(int clients, DoubleUnaryOperator rate) {
        this.clients = clients;
        this.rate = rate;
    }

    /** A linear ramp from {@code from} to {@code to} txn/s over {@code seconds}, then flat at {@code to}. */
    static DoubleUnaryOperator ramp(double from, double to, double seconds) {
        return t -> t >= seconds ? to : from + (to - from) * t / seconds;
    }

    @Override
    public CompletableFuture<Transaction> begin(String type, Inputs inputs, long priority) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("procedures only"));
    }

    @Override
    public CompletableFuture<CommitInfo> call(String type, Inputs inputs, long priority) {
        double t = (System.nanoTime() - start) / 1e9;
        long delayMicros = (long) (clients * 1e6 / rate.applyAsDouble(t));
        CompletableFuture<CommitInfo> f = new CompletableFuture<>();
        exec.schedule(() -> f.complete(new CommitInfo(ids.incrementAndGet(), Map.of(),
                CompletableFuture.completedFuture(null))), delayMicros, TimeUnit.MICROSECONDS);
        return f;
    }

    @Override
    public void close() {
        exec.shutdownNow();
    }
}
