package org.tebaldi.bench.run;

import java.util.List;
import org.tebaldi.bench.driver.ClosedLoopDriver;
import org.tebaldi.bench.driver.DriverConfig;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.experiment.ClusterSpec;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.bench.driver.MachineMonitor;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Runs one experiment in embedded mode (docs/architecture.md, "Runtime"): an {@link EmbeddedRuntime} with {@code cluster.threads}
 * threads and the emulated network delay, the workload's data loaded, the closed-loop driver, the cluster
 * stopped, then — with {@code verify} — the history and consistency checks.
 */
public final class ExperimentRun {
    /** How long to wait for the cluster's last messages (commits on their way to data servers) after the run, ms. */
    public static final long QUIESCE_MILLIS = 5_000;

    /** How long to wait for in-flight transactions after the end, ms. */
    public static final long DRAIN_TIMEOUT_MILLIS = 10_000;

    private final Experiment e;
    private final RunListener listener;
    private final RunExtension extension;
    private java.nio.file.Path runDir;
    private java.util.function.Consumer<org.tebaldi.bench.workload.DatabaseSnapshot> finalState;

    /** @param listener receives load progress, one tick per second and phase changes, on the calling thread */
    public ExperimentRun(Experiment experiment, RunListener listener) {
        this(experiment, listener, new RunExtension() { });
    }

    /** As above, with {@code extension} running beside the experiment. */
    public ExperimentRun(Experiment experiment, RunListener listener, RunExtension extension) {
        this.e = experiment;
        this.listener = listener;
        this.extension = extension;
    }

    /**
     * The run directory: with durability and no {@code durability.dir}, the stores go to {@code <runDir>/rocksdb}
     * (unset: a temporary directory); {@code memory.csv} goes there too.
     */
    public ExperimentRun inDirectory(java.nio.file.Path dir) {
        this.runDir = dir;
        return this;
    }

    /**
     * Hands the final state (every data server's latest committed rows, as the verification reads them) to
     * {@code sink} once the cluster stopped; e.g. {@code --dump}.
     */
    public ExperimentRun withFinalState(java.util.function.Consumer<org.tebaldi.bench.workload.DatabaseSnapshot> sink) {
        this.finalState = sink;
        return this;
    }

    /** The durability options of {@code e}, the stores defaulting to {@code <runDir>/rocksdb}. */
    public static org.tebaldi.server.durability.DurabilityOptions durability(Experiment e, java.nio.file.Path runDir) {
        if (!e.durability().enabled()) {
            return org.tebaldi.server.durability.DurabilityOptions.OFF;
        }
        java.nio.file.Path fallback;
        try {
            fallback = runDir != null ? runDir.resolve("rocksdb")
                    : java.nio.file.Files.createTempDirectory("tebaldi-rocksdb-");
        } catch (java.io.IOException x) {
            throw new IllegalStateException("cannot create a directory for the stores: " + x.getMessage(), x);
        }
        return e.durability().options(java.nio.file.Path.of("").toAbsolutePath(), fallback);
    }

    /**
     * The storage options of {@code e}: rows beyond {@code storage.memory} go to {@code storage.dir}, else to
     * {@code <runDir>/storage} (unset: the system's temporary directory).
     */
    public static org.tebaldi.server.storage.StorageOptions storage(Experiment e, java.nio.file.Path runDir) {
        java.nio.file.Path fallback = runDir != null ? runDir.toAbsolutePath().resolve("storage") : null;
        return e.storage().options(java.nio.file.Path.of("").toAbsolutePath(), fallback);
    }

    /**
     * @throws RunFailedException if a node or workload code threw during the run
     * @throws InterruptedException if the calling thread is interrupted
     */
    public RunResult run() throws RunFailedException, InterruptedException {
        Workload w = e.workload();
        ClusterSpec cs = e.cluster();
        EmbeddedRuntime rt = new EmbeddedRuntime(cs.threads(), cs.networkDelayMicros());
        org.tebaldi.server.durability.DurabilityOptions dur = durability(e, runDir);
        // stores in a temporary folder (no run directory, no durability.dir): deleted after the run
        java.nio.file.Path tempStores = runDir == null && dur.enabled() && e.durability().dir() == null ? dur.dir()
                : null;
        try {
            ClusterConfig cc = extension.configure(new ClusterConfig(w.database(), e.tree().tree(), cs.coordinators(),
                    cs.dataServers(), cs.partitioner(w.database().catalog(), w.partitioner(cs.dataServers())), e.verify()).withOpBatching(cs.batching())
                    .withDurability(dur).withStorage(storage(e, runDir))
                    .withCommit(cs.commit(), cs.epochMicros())
                    .withReplication(cs.replication()));
            ClusterLoader loader = new ClusterLoader(w.database().catalog(), cs.dataServers(),
                    keys -> new Cluster(rt, cc, keys));
            long t0 = System.nanoTime();
            w.load(loader, listener::loading);
            Cluster cluster = loader.finish();
            long loadMillis = (System.nanoTime() - t0) / 1_000_000;
            listener.loaded(loader.rows(), loadMillis);
            ClusterHosting.start(extension, cluster, rt);
            // a recovery rewrites the history: a restarted cluster's whole history is checked after the run
            HistoryCheck history = e.verify() && !cluster.restarted()
                    ? HistoryCheck.start(e.verification(), cluster, runDir, listener) : null;
            try {
                return measure(cluster, rt, loader, loadMillis, history);
            } finally {
                if (history != null) {
                    history.close();
                }
            }
        } finally {
            rt.close();
            deleteTree(tempStores);
        }
    }

    /** Deletes {@code dir} and everything in it (nothing if null); a file that cannot be deleted stays. */
    private static void deleteTree(java.nio.file.Path dir) {
        if (dir == null || !java.nio.file.Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException x) {
            // left for the system's temporary-file cleanup
        }
    }

    private RunResult measure(Cluster cluster, EmbeddedRuntime rt, ClusterLoader loader, long loadMillis,
            HistoryCheck history) throws RunFailedException, InterruptedException {
        Workload w = e.workload();
        cluster.start();
        awaitReplicas(cluster);
        DriverConfig dc = new DriverConfig(e.clients(), e.warmup().minMicros(), e.warmup().maxMicros(),
                e.durationMicros(), e.retry().backoffMicros(), e.retry().maxBackoffMicros(), e.seed(),
                DRAIN_TIMEOUT_MILLIS, e.retry().byMechanismMicros());
        DriverResult d;
        MemorySampler memory = new MemorySampler(cluster, history == null ? null : history.stream());
        java.util.List<java.util.Map<String, Long>> counters = new java.util.ArrayList<>(2);
        counters.add(cluster.ccCounters()); // no warm-up: the window starts with the run
        try {
            d = new ClosedLoopDriver(dc, w, cluster::client, rt.stats(), listener::tick,
                    () -> !rt.failures().isEmpty()).onStart(extension::started)
                    .onWindow(() -> {
                        counters.set(0, cluster.ccCounters());
                        if (history != null) {
                            history.windowStarted();
                        }
                        extension.windowStarted();
                    }, () -> {
                        if (history != null) {
                            history.windowEnded();
                        }
                        extension.windowEnded();
                        counters.add(cluster.ccCounters());
                    })
                    .monitor(new MachineMonitor(() -> ClusterHosting.nodeCpu(rt))).run();
        } finally {
            memory.close();
        }
        extension.stopped();
        if (rt.failures().isEmpty() && !d.stoppedEarly() && !cluster.awaitQuiet(QUIESCE_MILLIS)) {
            listener.phase("the cluster did not go quiet within " + QUIESCE_MILLIS + " ms after the run; stopping it");
        }
        cluster.close();
        failIfBroken(rt.failures(), d);
        listener.phase(memory.summary());
        if (runDir != null) {
            try {
                memory.write(runDir);
            } catch (java.io.IOException x) {
                listener.phase("cannot write memory.csv: " + x.getMessage());
            }
        }
        Checks checks = Checks.notChecked();
        if (e.verify()) {
            listener.phase("verifying");
            if (history != null) {
                HistoryCheck.Verdict v = history.finish(cluster);
                listener.phase(v.line());
                checks = Verifier.verify(cluster, w, v.serializable(), v.report());
            } else {
                checks = Verifier.verify(cluster, w);
            }
        }
        if (finalState != null) {
            finalState.accept(ClusterSnapshot.of(w.database().catalog(),
                    cluster.dataServers().stream().map(org.tebaldi.server.ds.DataServer::store).toList()));
        }
        cluster.dataServers().forEach(ds -> ds.store().close()); // nothing reads the stores any more
        java.util.Map<String, Long> ccCounts = RunResult.delta(counters.get(0),
                counters.size() > 1 ? counters.get(1) : cluster.ccCounters());
        return new RunResult(e, d, checks, rt.threads(), loader.rows(), loadMillis, null,
                EpochStats.of(cluster), ccCounts, ReplicationStats.of(cluster));
    }

    /**
     * With replication: waits until the backups hold the initial load (at most 10 minutes), so that their catching up
     * does not fall into the measured run.
     */
    private void awaitReplicas(Cluster cluster) throws InterruptedException {
        if (cluster.replicasLoaded()) {
            return;
        }
        listener.phase("waiting for the backups to take the initial load");
        long t0 = System.nanoTime();
        long end = t0 + 600_000_000_000L;
        while (!cluster.replicasLoaded() && System.nanoTime() < end) {
            Thread.sleep(100);
        }
        listener.phase((cluster.replicasLoaded() ? "the backups hold the initial load after "
                : "the backups still catch up after ") + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /** Throws for the first node failure, else for the first exception of workload code the driver caught. */
    static void failIfBroken(List<Throwable> nodeFailures, DriverResult d) throws RunFailedException {
        if (!nodeFailures.isEmpty()) {
            Throwable first = nodeFailures.get(0);
            throw new RunFailedException(nodeFailures.size() + " exception(s) in cluster nodes"
                    + (d.stoppedEarly() ? " (run stopped early)" : "") + "; first: " + first, first);
        }
        if (!d.failures().isEmpty()) {
            Throwable first = d.failures().get(0);
            throw new RunFailedException(d.failures().size() + " exception(s) in workload code run by the driver; "
                    + "first: " + first, first);
        }
    }
}
