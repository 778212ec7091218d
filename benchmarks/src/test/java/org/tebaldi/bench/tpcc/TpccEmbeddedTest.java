package org.tebaldi.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.tebaldi.bench.sim.SimDriver;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;

/**
 * TPC-C on real threads (embedded runtime, 2 TCs, 2 DSs, 50 µs emulated delay, 2PL over {2PL updates, none read-only}):
 * 12 closed-loop clients for one second (and until a new-order commits) on 2 small warehouses; once the cluster is
 * quiet, the consistency conditions and serializability of the recorded history. Catches what the single-threaded
 * simulator cannot (futures completing on node threads in the interactive bodies).
 */
class TpccEmbeddedTest {
    @Test
    void closedLoopOnRealThreadsStaysConsistentAndSerializable() throws Exception {
        TpccBenchmark b = new TpccBenchmark(new TpccConfig(2, 100, 30, 30, TpccMix.STANDARD, 4L));
        CcTree tree = CcTree.build(TreeSpec.inner("2pl",
                TreeSpec.leaf("2pl", NewOrder.NAME, Payment.NAME, Delivery.NAME).option("lockTimeout", "20ms"),
                TreeSpec.leaf("none", OrderStatus.NAME, StockLevel.NAME)).option("lockTimeout", "20ms"), "embedded");
        EmbeddedRuntime rt = new EmbeddedRuntime(2, 50);
        Cluster cluster = new Cluster(rt, new ClusterConfig(b.database(), tree, 2, 2, null, true), 1024);
        b.loader().load(cluster::load, TpccLoader.Progress.NONE);
        cluster.start();
        int clients = 12;
        // the clients run 1 s and until a new-order committed (at most 2 minutes, on a stalled machine)
        long now = System.nanoTime();
        long end = now + TimeUnit.MILLISECONDS.toNanos(1000);
        long cap = now + TimeUnit.MINUTES.toNanos(2);
        CountDownLatch done = new CountDownLatch(clients);
        Map<String, AtomicLong> committed = new ConcurrentHashMap<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < clients; i++) {
            loop(cluster.client(i), b.newClient(i, 17), null, end, cap, done, committed, failure);
        }
        assertTrue(done.await(3, TimeUnit.MINUTES), "clients finished");
        assertTrue(cluster.awaitQuiet(60_000), "the last commit messages landed within 60 s");
        cluster.close();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(0, rt.failures().size(), () -> "node failures: " + rt.failures());
        assertTrue(committed.getOrDefault(NewOrder.NAME, new AtomicLong()).get() > 0, committed::toString);

        ConsistencyReport r = b.consistency().check(k -> latest(cluster, k), (table, v) -> scan(cluster, table, v));
        assertTrue(r.ok(), r::summary);
        CheckResult h = SerializabilityChecker.check(History.merge(cluster.historyLogs()));
        assertTrue(h.serializable(), h::summary);
        System.out.println("embedded TPC-C: committed " + committed + "; " + h.summary(0));
    }

    private static void loop(TxnClient api, TpccClient gen, TpccRequest retry, long end, long cap,
                             CountDownLatch done, Map<String, AtomicLong> committed,
                             AtomicReference<Throwable> failure) {
        long now = System.nanoTime();
        boolean enough = now > end && committed.containsKey(NewOrder.NAME) || now > cap;
        if (failure.get() != null || (retry == null && enough)) {
            done.countDown();
            return;
        }
        TpccRequest req = retry != null ? retry : gen.next();
        SimDriver.attempt(api, req.asTxnRequest(), System.nanoTime() / 1000).whenComplete((v, e) -> {
            if (e == null) {
                committed.computeIfAbsent(req.type(), k -> new AtomicLong()).incrementAndGet();
                loop(api, gen, null, end, cap, done, committed, failure);
            } else if (SimDriver.retryable(e)) {
                loop(api, gen, req, end, cap, done, committed, failure);
            } else {
                failure.compareAndSet(null, SimDriver.unwrap(e));
                done.countDown();
            }
        });
    }

    private static Row latest(Cluster cluster, Key k) {
        int ds = cluster.config().partitioner().partition(k);
        VersionChain c = cluster.dataServers().get(ds).store().find(k);
        Version v = c == null ? null : c.latestCommitted();
        return v == null ? null : v.value();
    }

    private static void scan(Cluster cluster, int table, BiConsumer<Key, Row> visitor) {
        for (DataServer d : cluster.dataServers()) {
            d.store().forEach((k, chain) -> {
                Version v = k.table() == table ? chain.latestCommitted() : null;
                if (v != null && v.value() != null) {
                    visitor.accept(k, v.value());
                }
            });
        }
    }
}
