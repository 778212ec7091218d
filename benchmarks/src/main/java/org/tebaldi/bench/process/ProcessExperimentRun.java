package org.tebaldi.bench.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.tebaldi.bench.driver.ClosedLoopDriver;
import org.tebaldi.bench.driver.DriverConfig;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.experiment.ClusterSpec;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.run.Checks;
import org.tebaldi.bench.run.ClusterSnapshot;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.Hosting;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Partitioner;
import org.tebaldi.server.process.Control;
import org.tebaldi.server.process.OutcomeRecovery;
import org.tebaldi.server.process.ProcessCluster;
import org.tebaldi.server.zk.ClusterManifest;

/**
 * Runs one experiment in process mode (docs/architecture.md, "Runtime"; {@code cluster.mode: processes}): a {@link ProcessCluster} —
 * embedded ZooKeeper on loopback (or {@code --zk}), one JVM per service, data server and coordinator — the data
 * loaded over the network ({@link RemoteLoader}), the same closed-loop driver against the runner's client
 * endpoints with the whole cluster's message counters ({@link ClusterCounters}), then, with {@code verify}, every
 * live node's history and the data servers' final rows collected over the network and checked; outcomes lost with
 * a failed coordinator are reconstructed by {@link OutcomeRecovery}; with replication, a data server's failover
 * (automatic promotion of a backup) under way when the run ends is finished first. Every node is stopped at the end, also when
 * the run fails or the thread is interrupted.
 */
public final class ProcessExperimentRun {
    /** A coordinator aborts a transaction whose data-server request has no reply for this long, ms. */
    public static final long REPLY_TIMEOUT_MILLIS = 10_000;
    private static final long START_MILLIS = 90_000;
    private static final long COLLECT_SECONDS = 120;

    private final Experiment e;
    private final RunListener listener;
    private final Path logDir;
    private final String zk;
    private final List<String> nodeCommand;
    private final RunExtension extension;
    private volatile ProcessCluster current;
    private java.util.function.UnaryOperator<org.tebaldi.core.client.TxnClient> wrap = c -> c;
    private volatile List<HistoryLog> logs = List.of();
    private java.util.function.Consumer<org.tebaldi.bench.workload.DatabaseSnapshot> finalState;
    private org.tebaldi.server.process.NodeNetwork network;

    /**
     * @param logDir      where node outputs go ({@code <node>.log})
     * @param zk          an external ZooKeeper ensemble, or null for an embedded one
     * @param nodeCommand how to start a node ({@link NodeLauncher#command()}), or null to wait for nodes started by
     *                    hand
     */
    public ProcessExperimentRun(Experiment experiment, RunListener listener, Path logDir, String zk,
                                List<String> nodeCommand) {
        this(experiment, listener, logDir, zk, nodeCommand, new RunExtension() { });
    }

    /** As above, with {@code extension} running beside the experiment (its nodes hosted in the runner). */
    public ProcessExperimentRun(Experiment experiment, RunListener listener, Path logDir, String zk,
                                List<String> nodeCommand, RunExtension extension) {
        this.extension = extension;
        this.e = experiment;
        this.listener = listener;
        this.logDir = logDir;
        this.zk = zk;
        this.nodeCommand = nodeCommand;
    }

    /** Wraps every client endpoint the driver uses (e.g. to watch commit and durable notifications). */
    public ProcessExperimentRun wrapClients(java.util.function.UnaryOperator<org.tebaldi.core.client.TxnClient> w) {
        this.wrap = w;
        return this;
    }

    /**
     * Hands the final state (every data server's latest committed rows, collected over the network as the
     * verification does) to {@code sink} after the run, before the nodes stop; e.g. {@code --dump}.
     */
    public ProcessExperimentRun withFinalState(java.util.function.Consumer<org.tebaldi.bench.workload.DatabaseSnapshot>
                                                       sink) {
        this.finalState = sink;
        return this;
    }

    /**
     * Runs every process on {@code net} (e.g. each node in a network namespace of its own, docs/reliability.md
     * "Nemesis") instead of on {@code cluster.bind}.
     */
    public ProcessExperimentRun onNetwork(org.tebaldi.server.process.NodeNetwork net) {
        this.network = net;
        return this;
    }

    /** The node histories the last verification checked (empty before). */
    public List<HistoryLog> verifiedLogs() {
        return logs;
    }

    /** The running cluster (tests kill nodes through it), or null outside {@link #run}. */
    public ProcessCluster cluster() {
        return current;
    }

    /**
     * @throws RunFailedException if nodes cannot start, loading fails, or a node or workload code threw
     * @throws InterruptedException if the calling thread is interrupted (every node is stopped first)
     */
    public RunResult run() throws RunFailedException, InterruptedException {
        Workload w = e.workload();
        ClusterSpec cs = e.cluster();
        Partitioner partitioner = w.partitioner(cs.dataServers());
        org.tebaldi.server.durability.DurabilityOptions dur = ExperimentRun.durability(e, logDir.getParent());
        ClusterConfig cfg = extension.configure(new ClusterConfig(w.database(), e.tree().tree(), cs.coordinators(),
                cs.dataServers(), partitioner, e.verify()).withOpBatching(cs.batching())).withDurability(dur)
                .withCommit(cs.commit(), cs.epochMicros()).withReplication(cs.replication());
        ClusterManifest manifest = new ClusterManifest(e.workloadOptions(), cs.coordinators(), cs.dataServers(),
                e.verify(), cs.threads(), REPLY_TIMEOUT_MILLIS, cfg.profileFlushMicros(), extension.allServices(),
                cs.batching()).withDurability(dur).withCommit(cs.commit(), cs.epochMicros())
                .withReplication(cs.replicas(), cs.replicationMode().name().toLowerCase(),
                        cs.replicaReads().name().toLowerCase()).withTls(cs.tls());
        ProcessCluster.Spec spec = new ProcessCluster.Spec(cfg, manifest, e.name(), zk, nodeCommand, logDir,
                START_MILLIS, cs.bind(), (int) cs.sessionTimeoutMillis(), cs.autoFailover())
                .with(cs.fencing(), network != null ? network : org.tebaldi.server.process.NodeNetwork.oneHost(cs.bind()));
        listener.phase("starting ZooKeeper and the node processes (logs in " + logDir + ")");
        ProcessCluster pc;
        try {
            pc = ProcessCluster.start(spec);
        } catch (IllegalStateException x) {
            throw new RunFailedException(x.getMessage(), x);
        }
        current = pc;
        try {
            long t0 = System.nanoTime();
            RemoteLoader loader = new RemoteLoader(w.database().catalog(), cfg.partitioner(), cs.dataServers(),
                    pc.control());
            w.load(loader, listener::loading);
            loader.finish();
            long loadMillis = (System.nanoTime() - t0) / 1_000_000;
            listener.loaded(loader.rows(), loadMillis);
            extension.beforeStart(new Hosting() {
                @Override
                public void addNode(NodeId id, org.tebaldi.core.runtime.Actor actor) {
                    pc.addNode(id, actor);
                }

                @Override
                public org.tebaldi.core.runtime.NodeRuntime runtime() {
                    return pc.runtime();
                }

                @Override
                public void treeChanged(org.tebaldi.core.tree.CcTree tree) {
                    java.util.concurrent.CompletableFuture.runAsync(() -> pc.publishTree(tree));
                }
            });
            HealthWatch health = new HealthWatch(pc);
            DriverConfig dc = new DriverConfig(e.clients(), e.warmup().minMicros(), e.warmup().maxMicros(),
                    e.durationMicros(), e.retry().backoffMicros(), e.retry().maxBackoffMicros(), e.seed(),
                    ExperimentRun.DRAIN_TIMEOUT_MILLIS, e.retry().byMechanismMicros());
            DriverResult d;
            try {
                d = new ClosedLoopDriver(dc, w, i -> wrap.apply(pc.client(i)), new ClusterCounters(pc), listener::tick,
                        health::failed).onStart(extension::started)
                        .onWindow(extension::windowStarted, extension::windowEnded)
                        .monitor(new org.tebaldi.bench.driver.MachineMonitor(null)).run();
                extension.stopped();
            } finally {
                health.close();
            }
            if (cfg.replication().enabled() && !pc.awaitFailovers(START_MILLIS)) { // a take-over under way
                listener.phase("a data server's failover did not finish within " + START_MILLIS + " ms");
            }
            failIfBroken(pc, d);
            Checks checks = Checks.notChecked();
            if (!d.stoppedEarly() && pc.failedNodes().isEmpty() && !awaitQuiet(pc, ExperimentRun.QUIESCE_MILLIS)) {
                listener.phase("the nodes did not go quiet within " + ExperimentRun.QUIESCE_MILLIS
                        + " ms after the run; collecting anyway");
            }
            if (e.verify()) {
                listener.phase("collecting the history and the final state from the nodes");
                List<HistoryLog> collected = new ArrayList<>();
                checks = verify(pc, w, cfg, collected);
                logs = collected;
            }
            if (finalState != null) {
                listener.phase("collecting the final state from the data servers");
                finalState.accept(ClusterSnapshot.ofRows(cfg.db().catalog(), rows(pc)));
            }
            org.tebaldi.bench.run.ReplicationStats repl = cfg.replication().enabled()
                    ? replication(pc) : null;
            // one event-loop thread per node
            return new RunResult(e, d, checks, 1, loader.rows(), loadMillis, null, null, null, repl);
        } finally {
            current = null;
            pc.close();
        }
    }

    /**
     * Waits until no transaction is live at any coordinator or data server (polling their status every 10 ms), as
     * the embedded run does ({@code Cluster.awaitQuiet}): a commit decided and answered may still be on its way to
     * a data server, and a history collected before it lands shows committed writes no server applied.
     *
     * @return true if every node was quiet within {@code timeoutMillis} ms
     */
    private static boolean awaitQuiet(ProcessCluster pc, long timeoutMillis) throws RunFailedException,
            InterruptedException {
        long end = System.nanoTime() + timeoutMillis * 1_000_000;
        while (true) {
            boolean quiet = true;
            for (NodeId n : pc.nodes()) {
                boolean txnNode = n.role() == Role.TC || n.role() == Role.DS;
                if (txnNode && get(pc.control().status(n), n + " status").live() > 0) {
                    quiet = false;
                    break;
                }
            }
            if (quiet) {
                return true;
            }
            if (System.nanoTime() >= end) {
                return false;
            }
            Thread.sleep(10);
        }
    }

    /**
     * The replication counters of the data servers alive at the end (asked over the control plane; a killed
     * primary's are lost with it) and the promotions the cluster carried out.
     */
    private static org.tebaldi.bench.run.ReplicationStats replication(ProcessCluster pc) throws RunFailedException,
            InterruptedException {
        long shipped = 0;
        long acked = 0;
        long waited = 0;
        long resent = 0;
        long inner = 0;
        long served = 0;
        long fallbacks = 0;
        long lagMicros = 0;
        long lagSamples = 0;
        for (NodeId n : pc.nodes()) {
            if (n.role() == Role.TC && !pc.failedNodes().contains(n)) {
                Control.ReplicationCounters c = get(pc.control().replication(n), n + " replica-read counters");
                served += c.backupReads();
                fallbacks += c.backupFallbacks();
            }
            if (n.role() == Role.DS && !pc.failedNodes().contains(n)) {
                Control.ReplicationCounters c = get(pc.control().replication(n), n + " replication counters");
                shipped += c.shippedRecords();
                acked += c.acknowledgedWrites();
                waited += c.waitedWrites();
                resent += c.resent();
                inner += c.innerHostWaits();
                lagMicros += c.lagMicros();
                lagSamples += c.lagSamples();
            }
        }
        List<org.tebaldi.bench.run.ReplicationStats.Failover> f = new ArrayList<>();
        for (org.tebaldi.server.process.AutoFailover.Promotion p : pc.promotions()) {
            f.add(new org.tebaldi.bench.run.ReplicationStats.Failover(p.partition(), p.host(), p.atMillis(),
                    p.tookMillis(), p.by()));
        }
        return new org.tebaldi.bench.run.ReplicationStats(shipped, acked, waited, resent, f.size(), inner, served,
                fallbacks, lagSamples == 0 ? Double.NaN : lagMicros / 1000.0 / lagSamples, f);
    }

    private static void failIfBroken(ProcessCluster pc, DriverResult d) throws RunFailedException,
            InterruptedException {
        for (NodeId n : pc.nodes()) {
            if (pc.failedNodes().contains(n)) {
                continue;
            }
            Control.Status s = get(pc.control().status(n), n + " status");
            if (s.failures() > 0) {
                throw new RunFailedException(s.failures() + " exception(s) in " + n + " (see " + pc.logOf(n)
                        + "); first: " + s.firstFailure(), null);
            }
        }
        if (!d.failures().isEmpty()) {
            Throwable first = d.failures().get(0);
            throw new RunFailedException(d.failures().size() + " exception(s) in workload code run by the driver; "
                    + "first: " + first, first);
        }
    }

    private static Checks verify(ProcessCluster pc, Workload w, ClusterConfig cfg, List<HistoryLog> logs)
            throws RunFailedException, InterruptedException {
        List<Map<Key, Row>> rows = new ArrayList<>();
        Set<Integer> failedTcs = new HashSet<>();
        for (NodeId n : pc.nodes()) {
            if (pc.failedNodes().contains(n)) {
                if (n.role() == Role.TC) {
                    failedTcs.add(n.index());
                } else if (n.role() == Role.DS) {
                    throw new RunFailedException("data server " + n + " failed during the run: its history and data "
                            + "are lost, nothing can be verified", null);
                }
                continue;
            }
            if (n.role() == Role.TC || n.role() == Role.DS) {
                logs.add(get(pc.control().history(n), n + " history"));
            }
            if (n.role() == Role.DS) {
                rows.add(get(pc.control().rows(n), n + " rows"));
            }
        }
        logs.add(OutcomeRecovery.lostOutcomes(logs, failedTcs));
        CheckResult r = SerializabilityChecker.check(History.merge(logs));
        ClusterSnapshot snap = ClusterSnapshot.ofRows(cfg.db().catalog(), rows);
        return new Checks(r.serializable(), r.summary(), w.check(snap));
    }

    /** Every data server's latest committed rows. @throws RunFailedException if a data server failed */
    private static List<Map<Key, Row>> rows(ProcessCluster pc) throws RunFailedException, InterruptedException {
        List<Map<Key, Row>> rows = new ArrayList<>();
        for (NodeId n : pc.nodes()) {
            if (n.role() != Role.DS) {
                continue;
            }
            if (pc.failedNodes().contains(n)) {
                throw new RunFailedException("data server " + n + " failed during the run: its data is lost", null);
            }
            rows.add(get(pc.control().rows(n), n + " rows"));
        }
        return rows;
    }

    private static <T> T get(java.util.concurrent.CompletableFuture<T> f, String what) throws RunFailedException,
            InterruptedException {
        try {
            return f.get(COLLECT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException x) {
            throw new RunFailedException("collecting " + what + " failed: " + x.getCause().getMessage(), x.getCause());
        } catch (TimeoutException x) {
            throw new RunFailedException("collecting " + what + " timed out after " + COLLECT_SECONDS + " s", x);
        }
    }
}
