package org.tebaldi.server.sim;

import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.server.cluster.Cluster;

/** A workload for simulated runs: its database, its initial data, and one transaction attempt at a time. */
public interface SimWorkload {
    Database database();

    /** Loads the initial rows. */
    void load(Cluster cluster);

    /**
     * Runs one transaction attempt; the future completes with true on commit, false on abort (never
     * exceptionally for aborts).
     *
     * @param priority wait-die priority (kept across retries by the harness)
     */
    CompletableFuture<Boolean> attempt(TxnClient client, Random rnd, long priority);

    /** Checks workload invariants after the run (e.g. the bank total); throws AssertionError on violation. */
    default void checkFinal(Cluster cluster) {
    }

    /**
     * The whole cluster crashed and will recover only its durable transactions (dissertation §4.5.4): a workload
     * that checks what its clients were told forgets the promise of commits whose durable notification did not
     * arrive. Called at the crash, before the clients resume on the recovered cluster.
     */
    default void crashed() {
    }
}
