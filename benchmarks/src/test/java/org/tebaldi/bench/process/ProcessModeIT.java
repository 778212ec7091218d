package org.tebaldi.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.autoconf.reconfig.ReconfigServer;
import org.tebaldi.autoconf.reconfig.SwapResult;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.driver.TimelinePoint;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.report.SummaryJson;
import org.tebaldi.bench.tune.ProfilerExtension;
import org.tebaldi.bench.run.Hosting;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateRequest;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.process.ProcessCluster;
import org.tebaldi.server.process.Control;
import org.tebaldi.server.zk.ClusterManifest;

/**
 * Process mode end to end, each node a separate JVM started from the fat jar on loopback with an embedded
 * ZooKeeper (failsafe runs these after {@code package} built the jar): TPC-C on 2 coordinators and 2 data servers
 * is serializable and consistent over the history collected from every node; killing a coordinator with SIGKILL
 * mid-run leaves the others committing and the history serializable; the messages counted over Netty per
 * phase are the same for trees of depth 1 and 3; and both reconfiguration protocols work across processes, with
 * the reconfiguration server and the profiler monitor hosted by the runner and reached through ZooKeeper. Each run
 * ends once what its test waits for happened (so long, so many commits, a kill, the swaps; {@link LiveRun#finish}):
 * its duration is only a bound, so that a loaded machine makes the test slower, not failing.
 */
class ProcessModeIT {
    @TempDir
    Path tmp;

    private static final String TPCC = """
            name: tpcc-processes
            workload: {name: tpcc, warehouses: 2, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60}
            tree: {root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, stock_level]}}
            cluster: {mode: processes, dataServers: 2, coordinators: 2, threads: 1}
            clients: 8
            warmup: 1s
            duration: %s
            verify: true
            """;

    /** The runs' duration: only a bound, each test ends its run once what it waits for happened. */
    private static final String CAP = "300s";

    private Experiment experiment(String yaml) {
        return ExperimentLoader.parse(yaml, tmp.resolve("x.yaml"), List.of(), tmp);
    }

    @Test
    void tpccOnSeparateProcessesIsSerializableAndConsistent() throws Exception {
        RunExtension ender = new RunExtension() { // the window: 3 s and more than 20 commits
            @Override
            public void started(LiveRun run) {
                CompletableFuture.runAsync(() -> {
                    try {
                        Waits.until(() -> Waits.since(run.measureStartNanos(), 0), 180);
                        long base = run.commits(); // commits from here on are in the measured window
                        Waits.until(() -> Waits.since(run.measureStartNanos(), 3)
                                && run.commits() - base > 20, 180);
                    } finally {
                        run.finish();
                    }
                });
            }
        };
        ProcessExperimentRun run = new ProcessExperimentRun(experiment(TPCC.formatted(CAP)), new RunListener() {
        }, tmp.resolve("nodes"), null, NodeLauncher.command(), ender);
        RunResult r = run.run();
        assertTrue(r.driver().total().committed() > 20, "committed " + r.driver().total().committed());
        assertTrue(r.checks().serializable(), r.checks().report());
        assertTrue(r.checks().consistent(), () -> r.checks().consistency().summary() + " "
                + r.checks().consistency().problems());
        Map<String, Long> m = r.driver().messages();
        assertTrue(m.getOrDefault(ExecRequest.class.getSimpleName(), 0L) > 0, "counted over the network: " + m);
        // An ExecBatch is answered by one ExecReplies, or by a single ExecReply when the transaction is already
        // finished or doomed at the data server (DsPhases.replyExec): compare requests and replies of both kinds.
        long requests = m.get(ExecRequest.class.getSimpleName()) + m.getOrDefault("ExecBatch", 0L);
        long replies = m.get(ExecReply.class.getSimpleName()) + m.getOrDefault("ExecReplies", 0L);
        assertTrue(Math.abs(requests - replies) <= 8,
                "one reply per request, up to the requests in flight when the window closed: " + m);
        var summary = SummaryJson.build(r);
        assertTrue(summary.path("messages").path("perTxn").asDouble() > 0, summary.path("messages").toString());
        assertTrue(summary.path("messages").path("tcToDsPerPhase").path("commit").asDouble() > 0);
        for (String n : List.of("tc0", "tc1", "ds0", "ds1")) {
            assertTrue(Files.exists(tmp.resolve("nodes").resolve(n + ".log")), n + " wrote its log");
        }
    }

    @Test
    void killingACoordinatorMidRunLeavesTheOthersCommittingAndTheHistorySerializable() throws Exception {
        AtomicReference<ProcessExperimentRun> holder = new AtomicReference<>();
        AtomicInteger killedAtSecond = new AtomicInteger(-1);
        AtomicLong killedAt = new AtomicLong(); // System.nanoTime()
        AtomicLong startedAt = new AtomicLong();
        RunListener killer = new RunListener() {
            @Override
            public void tick(ProgressTick t) {
                if (t.second() == 2 && killedAtSecond.compareAndSet(-1, 2)) {
                    Process p = holder.get().cluster().process(NodeId.tc(1));
                    p.destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye
                    killedAt.set(System.nanoTime());
                }
            }
        };
        RunExtension ender = new RunExtension() { // the run goes on 6 s after the kill and until a commit 4 s on
            @Override
            public void started(LiveRun run) {
                startedAt.set(run.startNanos());
                CompletableFuture.runAsync(() -> {
                    try {
                        Waits.until(() -> killedAt.get() != 0, 180);
                        long k = killedAt.get();
                        Waits.until(() -> Waits.since(k, 4.1), 180); // a bucket on: commits from here are after 4 s
                        long base = run.commits();
                        Waits.until(() -> Waits.since(k, 6) && run.commits() > base, 180);
                    } finally {
                        run.finish();
                    }
                });
            }
        };
        ProcessExperimentRun run = new ProcessExperimentRun(experiment(TPCC.formatted(CAP)), killer,
                tmp.resolve("nodes"), null, NodeLauncher.command(), ender);
        holder.set(run);
        RunResult r = run.run();
        assertEquals(2, killedAtSecond.get(), "tc1 was killed");
        assertTrue(r.checks().serializable(), r.checks().report());
        assertTrue(r.checks().consistent(), () -> r.checks().consistency().summary() + " "
                + r.checks().consistency().problems());
        long lateMs = (killedAt.get() - startedAt.get()) / 1_000_000 + 4_000;
        double lateCommits = Waits.commitsAfter(r.driver().timeline(), lateMs);
        assertTrue(lateCommits > 0, "the surviving coordinator kept committing 4 s after the kill (" + lateMs
                + " ms into the run): " + r.driver().timeline());
        assertTrue(r.driver().total().errors() <= 8, "only transactions in flight at tc1 fail (outcome unknown): "
                + r.driver().errorSamples());
    }

    @Test
    void reconfiguresAcrossProcessesWithBothProtocolsAndProfiles() throws Exception {
        String initial = "{root: {cc: ssi, children: [{cc: none, txns: [order_status, stock_level]}, "
                + "{cc: 2pl, children: [{cc: 2pl, txns: [new_order, payment]}, {cc: 2pl, txns: [delivery]}]}]}}";
        Experiment e = experiment(TPCC.formatted(CAP).replace(
                "{root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, stock_level]}}", initial));
        TreeContext ctx = TreeContext.of(e.workload().database());
        CcTree online = TreeLoader.parse("root: {cc: ssi, children: [{cc: none, txns: [order_status, stock_level]}, "
                + "{cc: 2pl, children: [{cc: rp, children: [{cc: 2pl, txns: [new_order]}, {cc: 2pl, txns: [payment]}]},"
                + " {cc: 2pl, txns: [delivery]}]}]}", "online", ctx);
        CcTree restart = TreeLoader.parse("root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, "
                + "stock_level]}", "restart", ctx);
        List<SwapResult> swaps = new CopyOnWriteArrayList<>();
        AtomicLong swapsDoneMs = new AtomicLong(-1); // ms into the run
        AtomicReference<Throwable> swapFailure = new AtomicReference<>();
        ProfilerExtension ext = new ProfilerExtension(e.profiler().on(), e.workload().database()) {
            private ReconfigServer server;

            @Override
            public boolean allServices() {
                return true;
            }

            @Override
            public void beforeStart(Hosting host) {
                super.beforeStart(host);
                NodeId id = new NodeId(Role.CONFIGURATOR, 0);
                server = new ReconfigServer(id, host.runtime(), 2, 2, e.tree().tree(), Mechanisms::get);
                host.addNode(id, server);
            }

            @Override
            public void started(LiveRun run) {
                // each tree runs at least 3, 2 and 2 s and commits before the next step; the run then ends
                CompletableFuture.runAsync(() -> {
                    try {
                        long t0 = System.nanoTime();
                        long c0 = run.commits();
                        Waits.until(() -> Waits.since(t0, 3) && run.commits() > c0, 180);
                        swaps.add(server.onlineUpdate(online, 0).get(120, TimeUnit.SECONDS));
                        long t1 = System.nanoTime();
                        long c1 = run.commits();
                        Waits.until(() -> Waits.since(t1, 2) && run.commits() > c1, 180);
                        swaps.add(server.partialRestart(restart, 500_000).get(120, TimeUnit.SECONDS));
                        long t2 = System.nanoTime();
                        swapsDoneMs.set((t2 - run.startNanos()) / 1_000_000);
                        Waits.until(() -> Waits.since(t2, 0.1), 10); // a timeline bucket on: commits from here
                        long c2 = run.commits();                       // are in buckets after the swaps
                        Waits.until(() -> Waits.since(t2, 2) && run.commits() > c2
                                && monitor().reports().stream().mapToInt(w -> w.events()).sum() > 0, 180);
                    } catch (Throwable x) {
                        swapFailure.set(x);
                    } finally {
                        run.finish();
                    }
                });
            }
        };
        RunResult r = new ProcessExperimentRun(e, new RunListener() {
        }, tmp.resolve("nodes"), null, NodeLauncher.command(), ext).run();
        assertEquals(null, swapFailure.get(), "the swaps: " + swapFailure.get());
        assertEquals(2, swaps.size(), "both swaps completed: " + swaps);
        assertEquals("online-update", swaps.get(0).protocol(), swaps.toString());
        assertEquals("partial-restart", swaps.get(1).protocol(), swaps.toString());
        assertTrue(r.checks().serializable(), r.checks().report());
        assertTrue(r.checks().consistent(), () -> r.checks().consistency().summary());
        assertTrue(ext.monitor().reports().stream().mapToInt(w -> w.events()).sum() > 0,
                "blocking events reached the monitor over Netty");
        double late = Waits.commitsAfter(r.driver().timeline(), swapsDoneMs.get());
        assertTrue(late > 0, "committing after both swaps (" + swapsDoneMs.get() + " ms into the run): "
                + r.driver().timeline());
    }

    @Test
    void messagesPerPhaseOverNettyDoNotDependOnTreeDepth() throws Exception {
        String depth1 = "{root: {cc: 2pl, txns: [transfer, audit]}}";
        String depth3 = "{root: {cc: 2pl, children: [{cc: 2pl, children: [{cc: 2pl, txns: [transfer, audit]}]}]}}";
        Map<String, Long> a = countMessages(depth1, "d1");
        Map<String, Long> b = countMessages(depth3, "d3");
        assertTrue(a.getOrDefault(ValidateRequest.class.getSimpleName(), 0L) > 0, a.toString());
        assertTrue(a.getOrDefault(CommitRequest.class.getSimpleName(), 0L) > 0, a.toString());
        assertEquals(a, b, "per-phase message counts differ between depth 1 and depth 3");
    }

    /** Runs 60 seeded bank transactions one after the other and sums every process's message counters. */
    private Map<String, Long> countMessages(String tree, String name) throws Exception {
        Experiment e = experiment("""
                name: %s
                workload: {name: bank, accounts: 20, auditRatio: 0.2}
                tree: %s
                cluster: {mode: processes, dataServers: 2, coordinators: 1, threads: 1}
                clients: 1
                duration: 1s
                """.formatted(name, tree));
        Workload w = e.workload();
        ClusterConfig cfg = new ClusterConfig(w.database(), e.tree().tree(), 1, 2, w.partitioner(2), false);
        ClusterManifest m = new ClusterManifest(e.workloadOptions(), 1, 2, false, 1, 10_000);
        try (ProcessCluster pc = ProcessCluster.start(new ProcessCluster.Spec(cfg, m, name, null,
                NodeLauncher.command(), tmp.resolve(name), 90_000))) {
            RemoteLoader loader = new RemoteLoader(w.database().catalog(), cfg.partitioner(), 2, pc.control());
            w.load(loader, (stage, done, total) -> { });
            loader.finish();
            ClusterCounters counters = new ClusterCounters(pc);
            counters.reset();
            for (NodeId n : pc.nodes()) { // asked after the reset over the same channel: answered once it landed
                pc.control().status(n).get(60, TimeUnit.SECONDS);
            }
            TxnClient client = pc.client(0);
            ClientSource source = w.newClient(0, 42);
            for (int i = 0; i < 60; i++) {
                TxnRequest r = source.next();
                Transaction t = client.begin(r.type(), r.inputs(), i).get(10, TimeUnit.SECONDS);
                ((CompletableFuture<?>) r.body().apply(t)).get(10, TimeUnit.SECONDS);
                t.commit().get(10, TimeUnit.SECONDS);
            }
            awaitQuiet(pc); // the last commit requests reach the data servers
            for (NodeId n : pc.nodes()) {
                Control.Status s = pc.control().status(n).get(60, TimeUnit.SECONDS);
                assertEquals(0, s.failures(), n + ": " + s.firstFailure());
            }
            assertFalse(pc.anyExited());
            return counters.snapshot();
        }
    }

    /** Waits (at most 60 s) until no transaction is live at any coordinator or data server, asking every 10 ms. */
    private static void awaitQuiet(ProcessCluster pc) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> live = new ArrayList<>();
        do {
            live.clear();
            for (NodeId n : pc.nodes()) {
                if (n.role() == Role.TC || n.role() == Role.DS) {
                    int k = pc.control().status(n).get(60, TimeUnit.SECONDS).live();
                    if (k > 0) {
                        live.add(n + ": " + k);
                    }
                }
            }
            if (live.isEmpty()) {
                return;
            }
            Thread.sleep(10);
        } while (System.nanoTime() < end);
        throw new AssertionError("transactions still live 60 s after the last commit: " + live);
    }
}
