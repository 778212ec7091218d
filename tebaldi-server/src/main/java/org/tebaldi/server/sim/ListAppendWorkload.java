package org.tebaldi.server.sim;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.listappend.ListAppendChecker;
import org.tebaldi.core.history.listappend.ListAppendRecorder;
import org.tebaldi.core.history.listappend.ListAppendTxns;
import org.tebaldi.core.history.listappend.Result;
import org.tebaldi.server.cluster.Cluster;

/**
 * The list-append workload of {@link ListAppendTxns} (main code) for the conformance suite: update types
 * {@code t_a}, {@code t_b}, {@code t_c} and read-only {@code t_ro} over tables {@code la} and {@code lb}, with its
 * default mix (up to 4 operations, 20% read-only, 5% user aborts, 25% batched). Besides the engine-order checker
 * that {@link SimSuite} runs, {@link #checkFinal} checks what the clients observed with the black-box
 * {@link ListAppendChecker} (without final reads: every anomaly but lost appends).
 */
public final class ListAppendWorkload implements SimWorkload {
    private final ListAppendTxns txns;

    /** @param keys rows per table (fewer = more contention) */
    public ListAppendWorkload(int keys) {
        this(keys, 2);
    }

    /**
     * @param keys   rows per table (fewer = more contention)
     * @param tables 2 ({@code la, lb}) or 3 ({@code la, lb, lc}: runtime pipelining then runs three steps, and a
     *               transaction that misses {@code lb} skips one)
     */
    public ListAppendWorkload(int keys, int tables) {
        ListAppendTxns.Options d = ListAppendTxns.Options.defaults();
        txns = new ListAppendTxns(List.of("t_a", "t_b", "t_c", "t_ro"), Set.of("t_ro"),
                new ListAppendTxns.Options(keys, d.maxOps(), d.readOnlyShare(), d.userAbortShare(), d.batchShare(),
                        tables), new ListAppendRecorder());
    }

    /** The transactions and their recorder (for final reads and the black-box check of a whole run). */
    public ListAppendTxns txns() {
        return txns;
    }

    @Override
    public Database database() {
        return txns.database();
    }

    @Override
    public void load(Cluster cluster) {
        txns.load(cluster::load);
    }

    @Override
    public CompletableFuture<Boolean> attempt(TxnClient client, Random rnd, long priority) {
        return txns.attempt(client, rnd, priority);
    }

    @Override
    public void crashed() {
        txns.recorder().crash();
    }

    @Override
    public void checkFinal(Cluster cluster) {
        Result r = ListAppendChecker.check(txns.recorder().history());
        if (!r.valid()) {
            throw new AssertionError(r.summary(5));
        }
    }
}
