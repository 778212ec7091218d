package org.tebaldi.server.sim;

import java.util.Arrays;
import java.util.Random;
import java.util.function.IntFunction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.txn.TxnAbortedException;

/**
 * Closed-loop logical clients of a {@link SimWorkload} on the simulated runtime: each runs {@code txnsEach}
 * transactions, retrying an aborted attempt (same wait-die priority) after a random back-off of 100–2100 µs and
 * starting the next one 0–100 µs after a commit. Deterministic per seed. The clients can be moved to a new
 * runtime (a cluster restarted after a crash): {@link #start} again resumes every unfinished client with the
 * transactions it has left; an attempt in flight at the crash counts as not done and runs again. With
 * {@link #toleratingFailedAttempts()} (runs with injected faults), an attempt that fails with a
 * {@link TxnAbortedException} the workload did not handle — its outcome unknown (a lost message, a timeout) or its
 * node failed — counts as {@link #unknown()} and the client starts a new transaction (new priority) instead of
 * failing the run.
 */
public final class ClosedLoopClients {
    private final SimWorkload workload;
    private final int[] left;
    private final Random[] rnd;
    private int finished;
    private int committed;
    private int aborted;
    private int unknown;
    private boolean tolerant;
    private int epoch;
    private Throwable failure;
    /** Per client: virtual µs its attempt in flight started, or -1 between attempts. */
    private final long[] inFlightSince;

    /**
     * @param clients  logical clients (client endpoint {@code i} serves client {@code i})
     * @param txnsEach transactions each client commits
     * @param seed     seed of the clients' random choices
     */
    public ClosedLoopClients(SimWorkload workload, int clients, int txnsEach, long seed) {
        this.workload = workload;
        this.left = new int[clients];
        this.rnd = new Random[clients];
        this.inFlightSince = new long[clients];
        Arrays.fill(inFlightSince, -1);
        Random r = new Random(seed ^ 0x5DEECE66DL);
        for (int c = 0; c < clients; c++) {
            left[c] = txnsEach;
            rnd[c] = new Random(r.nextLong());
        }
    }

    /**
     * Starts every unfinished client on {@code sim} within its first 200 µs (virtual); callbacks of an earlier
     * start are ignored from now on.
     *
     * @param endpoint client endpoint of client {@code i}
     */
    public void start(SimulatedRuntime sim, IntFunction<TxnClient> endpoint) {
        int e = ++epoch;
        if (e > 1) {
            finished = 0;
            for (int l : left) {
                finished += l == 0 ? 1 : 0;
            }
        }
        for (int c = 0; c < left.length; c++) {
            if (e == 1 || left[c] > 0) {
                TxnClient client = endpoint.apply(c);
                int i = c;
                sim.at(sim.nowMicros() + rnd[c].nextInt(200), () -> next(sim, client, i, e));
            }
        }
    }

    /**
     * Stops every client: no new attempt or retry starts from now on; callbacks of attempts in flight are ignored
     * (their transactions still end at the cluster).
     */
    public void stop() {
        epoch++;
    }

    /** True once every client committed all its transactions. */
    public boolean done() {
        return finished == left.length;
    }

    /** Clients that committed all their transactions. */
    public int finished() {
        return finished;
    }

    /** Transactions client {@code c} still has to commit (0 once it finished). */
    public int left(int c) {
        return left[c];
    }

    /** Attempts committed so far. */
    public int committed() {
        return committed;
    }

    /** Attempts aborted (and retried) so far. */
    public int aborted() {
        return aborted;
    }

    /**
     * From now on an attempt failing with a {@link TxnAbortedException} is counted in {@link #unknown()} and followed
     * by a new transaction, instead of being the run's {@link #failure()}.
     *
     * @return this
     */
    public ClosedLoopClients toleratingFailedAttempts() {
        tolerant = true;
        return this;
    }

    /** Attempts that failed with an unknown outcome or for a node failure (a new transaction followed). */
    public int unknown() {
        return unknown;
    }

    /**
     * What the unfinished clients are doing, for a liveness report: per client, its transactions left and the
     * virtual µs its attempt in flight started ("between attempts" when none is in flight).
     */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < left.length; c++) {
            if (left[c] > 0) {
                b.append(" client ").append(c).append(": ").append(left[c]).append(" left, ")
                        .append(inFlightSince[c] < 0 ? "between attempts" : "in flight since " + inFlightSince[c]
                                + " µs").append(';');
            }
        }
        return b.toString().trim();
    }

    /** The first non-abort failure of an attempt (a workload assertion or a node error), or null. */
    public Throwable failure() {
        return failure;
    }

    private void next(SimulatedRuntime sim, TxnClient client, int c, int e) {
        if (e != epoch) {
            return;
        }
        if (left[c] == 0) {
            finished++;
            return;
        }
        attempt(sim, client, c, sim.nowMicros(), e);
    }

    private void attempt(SimulatedRuntime sim, TxnClient client, int c, long priority, int e) {
        if (e != epoch || failure != null) {
            return;
        }
        Random r = rnd[c];
        inFlightSince[c] = sim.nowMicros();
        workload.attempt(client, r, priority).whenComplete((ok, err) -> {
            if (e != epoch) {
                return;
            }
            inFlightSince[c] = -1;
            if (err != null) {
                Throwable cause = err.getCause() != null ? err.getCause() : err;
                if (tolerant && cause instanceof TxnAbortedException) {
                    unknown++;
                    sim.at(sim.nowMicros() + 100 + r.nextInt(2000), () -> next(sim, client, c, e));
                    return;
                }
                failure = failure != null ? failure : cause;
                return;
            }
            if (ok) {
                committed++;
                left[c]--;
                sim.at(sim.nowMicros() + r.nextInt(100), () -> next(sim, client, c, e));
            } else {
                aborted++;
                sim.at(sim.nowMicros() + 100 + r.nextInt(2000), () -> attempt(sim, client, c, priority, e));
            }
        });
    }
}
