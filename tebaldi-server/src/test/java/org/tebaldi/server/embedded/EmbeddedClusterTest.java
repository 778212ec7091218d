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
 * one-way delay) runs closed-loop bank clients for a while; the recorded history must be serializable and the
 * bank invariants must hold. Catches races the single-threaded simulator cannot.
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
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
        CountDownLatch done = new CountDownLatch(clients);
        AtomicLong committed = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int c = 0; c < clients; c++) {
            loop(cluster.client(c), w, new Random(c), end, done, committed, failure);
        }
        assertTrue(done.await(30, TimeUnit.SECONDS), "clients finished");
        Thread.sleep(200); // let the last commit messages land
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

    private static void loop(TxnClient client, SimWorkload w, Random rnd, long end, CountDownLatch done,
                             AtomicLong committed, AtomicReference<Throwable> failure) {
        if (System.nanoTime() > end || failure.get() != null) {
            done.countDown();
            return;
        }
        w.attempt(client, rnd, System.nanoTime() / 1000).whenComplete((ok, err) -> {
            if (err != null) {
                failure.compareAndSet(null, err);
            } else if (ok) {
                committed.incrementAndGet();
            }
            loop(client, w, rnd, end, done, committed, failure);
        });
    }
}
