package org.tebaldi.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.run.ReplicationStats;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.process.ProcessCluster;

/**
 * Failover in process mode (docs/mechanisms.md "Replication"; failsafe runs it after {@code package}): TPC-C on 3
 * data servers and 2 coordinators with durability on (asynchronous flushing, 200 ms GCP epochs) and primary-backup
 * replication; a primary data server is killed with SIGKILL at a random moment, its own store is deleted (so nothing
 * of it can come back), and — with nobody calling {@code ProcessCluster#promote} — the cluster promotes its first
 * backup by itself ({@code cluster.replication.failover: auto}, the default; {@code AutoFailover}): a new data
 * server for the partition opens the replica the backup kept and the cluster recovers while the clients keep
 * running; summary's replication block reports the counters and the promotion with its take-over time. Then: every
 * transaction whose durable notification reached a client is committed in the recovered history and in a data
 * server's log; none reported lost is visible; TPC-C's consistency conditions hold; the history — the promoted
 * server's part rebuilt from the replica, which holds the dead primary's prepared and committed records with their
 * reads — is serializable. The run lasts 16 s and until the cluster committed 3 s after the take-over (its
 * duration only a bound), so that a slow take-over on a loaded machine does not end the run half-way through it.
 */
class ReplicationFailoverIT {
    @TempDir
    Path tmp;

    private static final String TPCC = """
            name: %s
            workload: {name: tpcc, warehouses: 3, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60}
            tree: {root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, stock_level]}}
            cluster: {mode: processes, dataServers: 3, coordinators: 2, threads: 1, replication: {factor: %d, mode: %s}}
            clients: 8
            warmup: 1s
            duration: %s
            verify: true
            durability: {enabled: true, dir: %s, epoch: 200ms}
            seed: %d
            """;

    private void failover(String name, int factor, String mode, long seed) throws Exception {
        int seconds = 16; // at least; then until the take-over is done and the cluster commits 3 s after it
        Path stores = tmp.resolve("stores");
        Experiment e = ExperimentLoader.parse(TPCC.formatted(name, factor, mode, "300s", stores, seed),
                tmp.resolve("x.yaml"), List.of(), tmp);
        Set<Long> durable = ConcurrentHashMap.newKeySet();
        Set<Long> lost = ConcurrentHashMap.newKeySet();
        AtomicReference<ProcessExperimentRun> holder = new AtomicReference<>();
        AtomicReference<Throwable> chaosFailure = new AtomicReference<>();
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicLong tookOver = new AtomicLong(); // System.nanoTime() when the take-over was seen
        Random rnd = new Random(seed);
        int victim = rnd.nextInt(3);
        int host = (victim + 1) % 3;
        Thread chaos = new Thread(() -> {
            try {
                long start = System.nanoTime();
                Thread.sleep(3_000 + rnd.nextInt(2_000)); // a take-over (a node JVM's start) takes 5-10 s here
                ProcessCluster pc = holder.get().cluster();
                pc.process(NodeId.ds(victim)).destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye
                pc.process(NodeId.ds(victim)).waitFor();
                events.add("ds" + victim + " killed at " + (System.nanoTime() - start) / 1_000_000 + " ms");
                deleteTree(stores.resolve("ds" + victim)); // the dead primary's disk is gone
                long end = System.nanoTime() + 60_000_000_000L; // nobody promotes by hand: the cluster must
                while (pc.promotions().isEmpty()) {
                    if (System.nanoTime() > end || !pc.failoverErrors().isEmpty()) {
                        throw new AssertionError("no automatic take-over within 60 s: " + pc.failoverErrors());
                    }
                    Thread.sleep(50);
                }
                events.add("ds" + pc.promotions().get(0).host() + "'s replica took over ds"
                        + pc.promotions().get(0).partition() + " by itself at "
                        + (System.nanoTime() - start) / 1_000_000 + " ms");
                tookOver.set(System.nanoTime());
            } catch (Throwable t) {
                chaosFailure.set(t);
            }
        }, "chaos");
        RunListener listener = new RunListener() {
            @Override
            public void loaded(long rows, long millis) {
                chaos.start();
            }
        };
        RunExtension ender = new RunExtension() { // 16 s, the take-over, then 3 s and a commit after it
            @Override
            public void started(LiveRun live) {
                CompletableFuture.runAsync(() -> {
                    try {
                        Waits.until(() -> Waits.since(live.startNanos(), seconds)
                                && (tookOver.get() != 0 || chaosFailure.get() != null), 240);
                        long after = live.commits();
                        Waits.until(() -> chaosFailure.get() != null
                                || Waits.since(tookOver.get(), 3) && live.commits() > after, 120);
                    } finally {
                        live.finish();
                    }
                });
            }
        };
        ProcessExperimentRun run = new ProcessExperimentRun(e, listener, tmp.resolve("nodes"), null,
                NodeLauncher.command(), ender).wrapClients(c -> new DurabilityCrashIT.Watch(c, durable, lost));
        holder.set(run);
        RunResult r = run.run();
        chaos.join(60_000);
        assertNull(chaosFailure.get(), () -> "killing or promoting failed: " + chaosFailure.get());
        assertTrue(events.size() == 2, "events: " + events);
        assertTrue(r.checks().serializable(), r.checks().report());
        assertTrue(r.checks().consistent(), () -> r.checks().consistency().summary() + " "
                + r.checks().consistency().problems());
        Set<Long> committed = new HashSet<>();
        Set<Long> aborted = new HashSet<>();
        Set<Long> atDataServers = new HashSet<>();
        for (HistoryLog h : run.verifiedLogs()) {
            boolean ds = !h.writes().isEmpty() || !h.reads().isEmpty();
            for (HistoryLog.Outcome o : h.outcomes()) {
                (o.committed() ? committed : aborted).add(o.txn());
                if (ds && o.committed()) {
                    atDataServers.add(o.txn());
                }
            }
        }
        assertFalse(durable.isEmpty(), "some commits became durable");
        for (long t : durable) {
            assertTrue(committed.contains(t) && !aborted.contains(t), "acknowledged (durable) transaction " + t
                    + " is not committed in the recovered history");
            assertTrue(atDataServers.contains(t), "acknowledged transaction " + t + " is in no data server's log");
        }
        for (long t : lost) {
            assertFalse(committed.contains(t), "transaction " + t + " reported lost is visible");
        }
        assertTrue(Files.isDirectory(stores.resolve("ds" + victim + "-replica-at-ds" + host)),
                "the promoted replica's directory");
        ReplicationStats rs = r.replication();
        assertNotNull(rs, "process mode reports the replication counters");
        assertEquals(1, rs.promotions(), () -> "one automatic promotion: " + rs);
        ReplicationStats.Failover f = rs.failovers().get(0);
        assertEquals(victim, f.partition(), () -> "promoted partition: " + f);
        assertEquals(host, f.host(), () -> "the first backup's replica is promoted: " + f);
        assertEquals("runner", f.by(), () -> "decided automatically: " + f);
        assertTrue(f.tookMillis() > 0 && f.tookMillis() < 60_000, () -> "take-over time: " + f);
        assertTrue(rs.shippedRecords() > 0 && rs.acknowledgedWrites() > 0, () -> "records shipped and "
                + "acknowledged by the surviving primaries: " + rs);
        var summary = org.tebaldi.bench.report.SummaryJson.build(r).get("replication");
        assertEquals(1, summary.get("promotions").asInt(), summary.toString());
        assertEquals(host, summary.at("/failovers/0/host").asInt(), summary.toString());
        assertEquals(f.tookMillis(), summary.at("/failovers/0/tookMillis").asLong(), summary.toString());
        assertTrue(summary.get("waitedWrites").asLong() > 0, summary.toString());
        System.out.printf("%s: %s; %d committed, %d durable notifications, %d lost; replication %s%n", name, events,
                r.driver().total().committed(), durable.size(), lost.size(), rs);
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void aKilledPrimaryIsReplacedByItsBackupUnderSyncReplication() throws Exception {
        failover("failover-sync", 2, "sync", 21);
    }

    @Test
    void aKilledPrimaryIsReplacedByItsBackupUnderAsyncReplicationFactorThree() throws Exception {
        failover("failover-async", 3, "async", 22);
    }
}
