package org.tebaldi.server.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletionException;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;

/**
 * One simulated run under injected faults: a cluster with the transaction timeout on, closed-loop clients that run a
 * workload until a given virtual time (retrying aborts; an attempt of unknown outcome or failed by a node failure
 * counts apart and the client goes on), then the checks every fault test makes — no workload assertion failed, the
 * cluster commits again after the last fault healed, every transaction ends (no live one left at a live coordinator
 * or data server), the workload's invariants, and the history is serializable.
 */
final class FaultRun {
    /** Transaction timeout of fault runs, µs (virtual). */
    static final long TXN_TIMEOUT = 20_000;
    /** Cross-mechanism wait timeout of fault runs, µs (also how soon a lost watermark request is asked again). */
    static final long WAIT_TIMEOUT = 50_000;
    /** How long after the clients stopped every transaction must have ended, µs: beyond RP's 1 s lock timeout. */
    static final long QUIET_LIMIT = 1_500_000;

    final long seed;
    final SimulatedRuntime sim;
    final Cluster cluster;
    final SimWorkload workload;
    final Random random;
    int committed;
    int aborted;
    /** Attempts that failed with an unknown outcome or because a node failed (not retryable). */
    int unknown;
    /** Commits that completed after {@link #healedAt}. */
    int committedAfterHeal;
    long healedAt = Long.MAX_VALUE;
    private Throwable failure;
    private final List<Runnable> extraChecks = new ArrayList<>();

    /** Adds a check run last by {@link #runAndCheck} (throws AssertionError on violation). */
    FaultRun also(Runnable check) {
        extraChecks.add(check);
        return this;
    }

    FaultRun(long seed, SimWorkload workload, CcTree tree, int tcs, int dss) {
        this(seed, workload, tree, tcs, dss, c -> c);
    }

    /** With the cluster configuration adjusted by {@code configure} (e.g. epoch-based commit). */
    FaultRun(long seed, SimWorkload workload, CcTree tree, int tcs, int dss,
             java.util.function.UnaryOperator<ClusterConfig> configure) {
        this.seed = seed;
        this.workload = workload;
        this.random = new Random(seed * 7_919);
        this.sim = new SimulatedRuntime(seed, SimulatedRuntime.Model.jittery());
        ClusterConfig cfg = configure.apply(new ClusterConfig(workload.database(), tree, tcs, dss, null, true)
                .withGcEpoch(1_000).withWaitTimeout(WAIT_TIMEOUT)
                .withTxnTimeout(Long.getLong("tebaldi.txnTimeout", TXN_TIMEOUT)));
        this.cluster = new Cluster(sim, cfg, 64);
        workload.load(cluster);
        cluster.start();
    }

    /** Starts {@code n} closed-loop clients on endpoints 0..n-1 (round robin) issuing attempts until {@code untilMicros}. */
    FaultRun clients(int n, long untilMicros) {
        for (int c = 0; c < n; c++) {
            TxnClient client = cluster.client(c);
            Random r = new Random(random.nextLong());
            sim.at(sim.nowMicros() + r.nextInt(200), () -> loop(client, r, untilMicros, sim.nowMicros()));
        }
        return this;
    }

    private void loop(TxnClient client, Random r, long until, long priority) {
        if (sim.nowMicros() >= until || failure != null) {
            return;
        }
        workload.attempt(client, r, priority).whenComplete((ok, err) -> {
            if (err != null) {
                Throwable c = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
                if (c instanceof TxnAbortedException x && !x.retryable()) {
                    unknown++;
                    sim.at(sim.nowMicros() + 100, () -> loop(client, r, until, sim.nowMicros()));
                } else if (failure == null) {
                    failure = c;
                }
                return;
            }
            if (ok) {
                committed++;
                if (sim.nowMicros() > healedAt) {
                    committedAfterHeal++;
                }
                sim.at(sim.nowMicros() + r.nextInt(100), () -> loop(client, r, until, sim.nowMicros()));
            } else {
                aborted++;
                sim.at(sim.nowMicros() + 100 + r.nextInt(2000), () -> loop(client, r, until, priority));
            }
        });
    }

    /**
     * Runs until {@code untilMicros}, lets every transaction end (at most {@link #QUIET_LIMIT} more), and makes
     * every check.
     *
     * @throws AssertionError naming the seed and what failed
     */
    void runAndCheck(long untilMicros) {
        sim.runUntil(untilMicros);
        boolean quiet = sim.runUntil(this::quiet, sim.nowMicros() + QUIET_LIMIT);
        String where = "seed=" + seed + " tree=" + cluster.config().tree().describe() + " faults=" + sim.faults().counts()
                + ": ";
        if (failure != null) {
            throw new AssertionError(where + "workload failed: " + failure, failure);
        }
        if (!quiet) {
            StringBuilder state = new StringBuilder();
            cluster.coordinators().forEach(t -> t.describeLive(5).forEach(l -> state.append("\n    tc: ").append(l)));
            cluster.dataServers().forEach(d -> d.describeLive(5).forEach(l -> state.append("\n    ds")
                    .append(d.dsIndex()).append(": ").append(l)));
            throw new AssertionError(where + "transactions still live long after the clients stopped:" + state);
        }
        if (committedAfterHeal == 0) {
            throw new AssertionError(where + "nothing committed after the last fault healed at " + healedAt + " µs ("
                    + committed + " commits in all)");
        }
        try {
            workload.checkFinal(cluster);
        } catch (AssertionError e) {
            throw new AssertionError(where + e.getMessage(), e);
        }
        CheckResult r = SerializabilityChecker.check(History.merge(cluster.historyLogs()));
        if (!r.serializable()) {
            throw new AssertionError(where + r.summary(5));
        }
        for (Runnable c : extraChecks) {
            try {
                c.run();
            } catch (AssertionError e) {
                throw new AssertionError(where + e.getMessage(), e);
            }
        }
    }

    /** No live transaction at a live coordinator or at any data server. */
    private boolean quiet() {
        for (int i = 0; i < cluster.coordinators().size(); i++) {
            if (!cluster.crashedCoordinators().contains(i) && cluster.coordinators().get(i).liveTransactions() != 0) {
                return false;
            }
        }
        for (DataServer d : cluster.dataServers()) {
            if (d.liveTransactions() != 0) {
                return false;
            }
        }
        return true;
    }

    /** Runs {@code runs} and collects one message per failure. */
    static List<String> failures(List<Runnable> runs) {
        List<String> out = new ArrayList<>();
        for (Runnable r : runs) {
            try {
                r.run();
            } catch (AssertionError | RuntimeException e) {
                out.add(String.valueOf(e.getMessage()));
            }
        }
        return out;
    }
}
