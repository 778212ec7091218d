package org.tebaldi.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.sim.BankWorkload;
import org.tebaldi.server.sim.SimWorkload;

/**
 * The same node code on real threads: an embedded cluster (2 TCs, 3 DSs, 4 executor threads, 50 µs emulated
 * one-way delay) runs closed-loop bank clients for 1.5 s (and until more than 100 commits); once the cluster is quiet,
 * the recorded history must be serializable and the bank invariants must hold. Catches races the single-threaded
 * simulator cannot.
 */
class EmbeddedClusterTest {
    @Test
    void bankOnRealThreadsIsSerializable() throws Exception {
        BankWorkload w = new BankWorkload(32);
        CcTree tree = CcTree.build(TreeSpec.inner("2pl", TreeSpec.leaf("2pl", "transfer").option("lockTimeout", "10ms"),
                TreeSpec.leaf("none", "audit")).option("lockTimeout", "10ms"), "embedded");
        EmbeddedRuntime rt = new EmbeddedRuntime(4, 50);
        Cluster cluster = new Cluster(rt, new ClusterConfig(w.database(), tree, 2, 3, null, true), 64);
        w.load(cluster);
        cluster.start();
        int clients = 16;
        // the clients run 1.5 s and until more than 100 commits (at most 2 minutes, on a stalled machine)
        long now = System.nanoTime();
        long end = now + TimeUnit.MILLISECONDS.toNanos(1500);
        long cap = now + TimeUnit.MINUTES.toNanos(2);
        CountDownLatch done = new CountDownLatch(clients);
        AtomicLong committed = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int c = 0; c < clients; c++) {
            loop(cluster.client(c), w, new Random(c), end, cap, done, committed, failure);
        }
        assertTrue(done.await(3, TimeUnit.MINUTES), "clients finished");
        assertTrue(cluster.awaitQuiet(60_000), "the last commit messages landed within 60 s");
        cluster.close();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(0, rt.failures().size(), () -> "node failures: " + rt.failures());
        assertTrue(committed.get() > 100, "committed " + committed.get());
        w.checkFinal(cluster);
        CheckResult r = SerializabilityChecker.check(History.merge(cluster.historyLogs()));
        assertTrue(r.serializable(), r::summary);
        System.out.println("embedded bank: " + committed.get() + " committed, " + w.audits() + " audits; " + r.summary(0));
    }

    private static void loop(TxnClient client, SimWorkload w, Random rnd, long end, long cap, CountDownLatch done,
                             AtomicLong committed, AtomicReference<Throwable> failure) {
        long now = System.nanoTime();
        if (now > end && committed.get() > 100 || now > cap || failure.get() != null) {
            done.countDown();
            return;
        }
        w.attempt(client, rnd, System.nanoTime() / 1000).whenComplete((ok, err) -> {
            if (err != null) {
                failure.compareAndSet(null, err);
            } else if (ok) {
                committed.incrementAndGet();
            }
            loop(client, w, rnd, end, cap, done, committed, failure);
        });
    }
}
