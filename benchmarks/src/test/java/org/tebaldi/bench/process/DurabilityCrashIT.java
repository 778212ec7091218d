package org.tebaldi.bench.process;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.RowUpdate;
import org.tebaldi.server.process.ProcessCluster;

/**
 * Crash recovery in process mode (dissertation §4.5.4; failsafe runs it after {@code package}): TPC-C on 2 data
 * servers and 2 coordinators with durability on (asynchronous flushing, 200 ms GCP epochs); data servers are killed
 * with SIGKILL at random moments — one at a time, three times, and, in the other case, all of them at once, twice —
 * and restarted from their RocksDB stores while the clients keep running. Then: every transaction whose durable
 * notification reached a client is committed in the recovered history; none reported lost (its epoch was not
 * persisted everywhere) is visible anywhere; TPC-C's consistency conditions hold; the history of the survivors —
 * rebuilt by recovery from the logs — is serializable. A run lasts its seconds and until every kill and restart is
 * done and the cluster committed after them (its duration only a bound), so that slow restarts on a loaded machine
 * do not end the run with a data server still down.
 */
class DurabilityCrashIT {
    @TempDir
    Path tmp;

    private static final String TPCC = """
            name: %s
            workload: {name: tpcc, warehouses: 2, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60}
            tree: {root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, stock_level]}}
            cluster: {mode: processes, dataServers: 2, coordinators: 2, threads: 1}
            clients: 8
            warmup: 1s
            duration: %s
            verify: true
            durability: {enabled: true, dir: %s, epoch: 200ms}
            seed: %d
            """;

    /** Watches commit and durable notifications of every transaction through an endpoint. */
    static final class Watch implements TxnClient {
        final TxnClient inner;
        final Set<Long> durable;
        final Set<Long> lost;

        Watch(TxnClient inner, Set<Long> durable, Set<Long> lost) {
            this.inner = inner;
            this.durable = durable;
            this.lost = lost;
        }

        CommitInfo seen(CommitInfo ci) {
            ci.durable().whenComplete((v, e) -> {
                if (e == null) {
                    durable.add(ci.txnId());
                } else if (String.valueOf(e.getMessage()).contains("lost")) {
                    lost.add(ci.txnId());
                }
            });
            return ci;
        }

        @Override
        public CompletableFuture<Transaction> begin(String type, Inputs inputs, long priority) {
            return inner.begin(type, inputs, priority).thenApply(t -> new Transaction() {
                public long id() {
                    return t.id();
                }

                public CompletableFuture<Row> execute(Op op) {
                    return t.execute(op);
                }

                public CompletableFuture<Row> read(String table, long... key) {
                    return t.read(table, key);
                }

                public CompletableFuture<Row> readForUpdate(String table, long... key) {
                    return t.readForUpdate(table, key);
                }

                public CompletableFuture<Void> write(Row row, long... key) {
                    return t.write(row, key);
                }

                public CompletableFuture<Row> update(String table, RowUpdate update, long... key) {
                    return t.update(table, update, key);
                }

                public CompletableFuture<Void> delete(String table, long... key) {
                    return t.delete(table, key);
                }

                public CompletableFuture<CommitInfo> commit() {
                    return t.commit().thenApply(Watch.this::seen);
                }

                public CompletableFuture<Void> abort() {
                    return t.abort();
                }
            });
        }

        @Override
        public CompletableFuture<CommitInfo> call(String type, Inputs inputs, long priority) {
            return inner.call(type, inputs, priority).thenApply(this::seen);
        }
    }

    private void crashAndRecover(String name, long seed, int seconds, int[][] killWindows, boolean all)
            throws Exception {
        Experiment e = ExperimentLoader.parse(TPCC.formatted(name, "300s", tmp.resolve("stores"), seed),
                tmp.resolve("x.yaml"), List.of(), tmp);
        Set<Long> durable = ConcurrentHashMap.newKeySet();
        Set<Long> lost = ConcurrentHashMap.newKeySet();
        AtomicReference<ProcessExperimentRun> holder = new AtomicReference<>();
        AtomicReference<Throwable> chaosFailure = new AtomicReference<>();
        List<String> kills = new CopyOnWriteArrayList<>();
        AtomicLong chaosDone = new AtomicLong(); // System.nanoTime() when the last restart returned (or chaos failed)
        Random rnd = new Random(seed);
        Thread chaos = new Thread(() -> {
            try {
                long start = System.nanoTime();
                for (int[] w : killWindows) {
                    long at = (w[0] * 1000L + rnd.nextInt((w[1] - w[0]) * 1000)) * 1_000_000L;
                    Thread.sleep(Math.max(0, (start + at - System.nanoTime()) / 1_000_000));
                    ProcessCluster pc = holder.get().cluster();
                    List<NodeId> victims = all ? List.of(NodeId.ds(0), NodeId.ds(1)) : List.of(NodeId.ds(rnd.nextInt(2)));
                    for (NodeId v : victims) {
                        pc.process(v).destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye
                    }
                    kills.add(victims + " at " + (System.nanoTime() - start) / 1_000_000 + " ms");
                    for (NodeId v : victims) {
                        pc.restart(v);
                    }
                }
            } catch (Throwable t) {
                chaosFailure.set(t);
            } finally {
                chaosDone.set(System.nanoTime());
            }
        }, "chaos");
        RunListener listener = new RunListener() {
            @Override
            public void loaded(long rows, long millis) {
                chaos.start();
            }
        };
        RunExtension ender = new RunExtension() { // `seconds`, every kill and restart, then a commit after them
            @Override
            public void started(LiveRun live) {
                CompletableFuture.runAsync(() -> {
                    try {
                        Waits.until(() -> Waits.since(live.startNanos(), seconds) && chaosDone.get() != 0, 240);
                        long after = live.commits();
                        Waits.until(() -> chaosFailure.get() != null || live.commits() > after, 120);
                    } finally {
                        live.finish();
                    }
                });
            }
        };
        ProcessExperimentRun run = new ProcessExperimentRun(e, listener, tmp.resolve("nodes"), null,
                NodeLauncher.command(), ender).wrapClients(c -> new Watch(c, durable, lost));
        holder.set(run);
        RunResult r = run.run();
        chaos.join(60_000);
        assertNull(chaosFailure.get(), () -> "killing or restarting failed: " + chaosFailure.get());
        assertTrue(kills.size() == killWindows.length, "kills: " + kills);
        assertTrue(r.checks().serializable(), r.checks().report());
        assertTrue(r.checks().consistent(), () -> r.checks().consistency().summary() + " "
                + r.checks().consistency().problems());
        Set<Long> committed = new HashSet<>();
        Set<Long> aborted = new HashSet<>();
        Set<Long> atDataServers = new HashSet<>();
        List<HistoryLog> logs = run.verifiedLogs();
        for (HistoryLog h : logs) {
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
            assertTrue(committed.contains(t) && !aborted.contains(t), "durable transaction " + t
                    + " is not committed in the recovered history");
            assertTrue(atDataServers.contains(t), "durable transaction " + t + " is in no data server's recovered log");
        }
        for (long t : lost) {
            assertFalse(committed.contains(t), "transaction " + t + " of an unpersisted epoch is visible");
        }
        System.out.printf("%s: kills %s; %d committed, %d durable notifications, %d lost%n", name, kills,
                r.driver().total().committed(), durable.size(), lost.size());
    }

    @Test
    void killingOneDataServerAtRandomMomentsKeepsDurableCommits() throws Exception {
        crashAndRecover("crash-one", 11, 26, new int[][] {{3, 6}, {10, 13}, {16, 19}}, false);
    }

    @Test
    void killingAllDataServersAtRandomMomentsKeepsDurableCommits() throws Exception {
        crashAndRecover("crash-all", 12, 20, new int[][] {{3, 6}, {11, 14}}, true);
    }
}
