package org.tebaldi.bench.sim;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * What the test drivers share: one attempt of a {@link TxnRequest} (the contract described on that record), how
 * an abort is told from a failure, and the end-of-run checks on a simulated cluster (the clients finished within
 * the virtual time limit; nothing is left running at a coordinator or data server).
 */
public final class SimDriver {
    /** Virtual time limit of a run, µs (one hour). */
    public static final long LIMIT_MICROS = 3_600_000_000L;

    private SimDriver() {
    }

    /**
     * One attempt: a procedure call, or begin + body + commit (abort if the body fails for another reason than an
     * abort); the request's outcome listener hears how it ended. Completes with the procedure's outputs map or the
     * body's result.
     */
    public static CompletableFuture<Object> attempt(TxnClient api, TxnRequest req, long priority) {
        return attemptOnce(api, req, priority).whenComplete((v, e) -> req.ended(e == null ? null : unwrap(e)));
    }

    private static CompletableFuture<Object> attemptOnce(TxnClient api, TxnRequest req, long priority) {
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
    public static boolean retryable(Throwable e) {
        return unwrap(e) instanceof TxnAbortedException a && a.retryable();
    }

    /** The cause under {@link CompletionException} wrappers. */
    public static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /**
     * Runs {@code sim} until {@code done} or a failure, then {@link #settle}s.
     *
     * @param what    what did not finish, for the message, e.g. {@code "3 of 8 clients finished"}
     * @throws AssertionError naming the seed if a failure was recorded, {@code done} did not become true within
     *                        {@link #LIMIT_MICROS} of virtual time (liveness), or a transaction is left running
     */
    public static void await(SimulatedRuntime sim, Cluster cluster, long seed, BooleanSupplier done,
                             Supplier<Throwable> failure, Supplier<String> what) {
        boolean ok = sim.runUntil(() -> done.getAsBoolean() || failure.get() != null,
                sim.nowMicros() + LIMIT_MICROS);
        Throwable f = failure.get();
        if (f != null) {
            throw new AssertionError("seed=" + seed + ": " + f, f);
        }
        if (!ok) {
            throw new AssertionError("seed=" + seed + ": liveness: " + what.get() + " within the time limit");
        }
        settle(sim, cluster, seed);
    }

    /**
     * Lets 50 ms of virtual time pass, then checks that no transaction is live at any node.
     *
     * @throws AssertionError naming the seed and the node otherwise
     */
    public static void settle(SimulatedRuntime sim, Cluster cluster, long seed) {
        sim.runUntil(sim.nowMicros() + 50_000);
        for (TransactionCoordinator t : cluster.coordinators()) {
            if (t.liveTransactions() != 0) {
                throw new AssertionError("seed=" + seed + ": " + t.liveTransactions() + " transactions live at a TC");
            }
        }
        for (DataServer d : cluster.dataServers()) {
            if (d.liveTransactions() != 0) {
                throw new AssertionError("seed=" + seed + ": " + d.liveTransactions() + " live at ds" + d.dsIndex());
            }
        }
    }
}
