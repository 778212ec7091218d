package org.tebaldi.server.scenarios;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * A scripted interleaving on a simulated cluster with fixed 100 µs delays (so the script's timing is exact): the
 * test loads rows, then drives clients step by step with {@link #at} and {@link #run}.
 */
final class Scenario {
    final SimulatedRuntime sim = new SimulatedRuntime(1, new SimulatedRuntime.Model(100, 100, 0, 0));
    final Cluster cluster;

    Scenario(Database db, CcTree tree, int dataServers) {
        this(db, tree, dataServers, null);
    }

    /** With {@code partitioner} (null: the default), e.g. a Chiller placement with hot records. */
    Scenario(Database db, CcTree tree, int dataServers, org.tebaldi.server.node.Partitioner partitioner) {
        this(db, tree, dataServers, partitioner, c -> c);
    }

    /** With the cluster configuration adjusted by {@code configure} (e.g. durability). */
    Scenario(Database db, CcTree tree, int dataServers, org.tebaldi.server.node.Partitioner partitioner,
             java.util.function.UnaryOperator<ClusterConfig> configure) {
        cluster = new Cluster(sim, configure.apply(new ClusterConfig(db, tree, 2, dataServers, partitioner, true)), 64);
    }

    Scenario load(Key k, Row r) {
        cluster.load(k, r);
        return this;
    }

    Scenario start() {
        cluster.start();
        return this;
    }

    TxnClient client(int i) {
        return cluster.client(i);
    }

    /** Runs {@code step} at virtual time {@code micros}. */
    void at(long micros, Runnable step) {
        sim.at(micros, step);
    }

    /** Runs the simulation up to {@code micros}. */
    void run(long micros) {
        sim.runUntil(micros);
    }

    /** The checker's verdict over the whole history. */
    CheckResult check() {
        return SerializabilityChecker.check(History.merge(cluster.historyLogs()));
    }

    /** Describes how a future ended: "committed", "aborted: reason" or "pending". */
    static String outcome(CompletableFuture<?> f) {
        if (!f.isDone()) {
            return "pending";
        }
        try {
            f.join();
            return "committed";
        } catch (CompletionException e) {
            return "aborted: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
        }
    }
}
