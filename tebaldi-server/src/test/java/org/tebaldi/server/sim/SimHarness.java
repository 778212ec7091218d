package org.tebaldi.server.sim;

import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * Runs a workload on a simulated cluster: {@code clients} closed-loop logical clients, each running
 * {@code txnsPerClient} transactions (retrying aborted attempts after a random back-off), then checks
 * liveness (every client finished, nothing left running) and the workload's invariants. Deterministic per
 * seed.
 */
public final class SimHarness {
    /** Outcome counters of one run. */
    public static final class Stats {
        public int committed;
        public int aborted;
        public long virtualMicros;
    }

    /** GC epochs of 1 ms (virtual): every simulated run prunes versions while it runs (dissertation §4.5.3). */
    static final long GC_EPOCH_MICROS = 1_000;

    private final SimWorkload workload;
    private final CcTree tree;
    private int coordinators = 2;
    private int dataServers = 2;
    private int clients = 6;
    private int txnsPerClient = 20;
    private SimulatedRuntime.Model model = SimulatedRuntime.Model.jittery();

    public SimHarness(SimWorkload workload, CcTree tree) {
        this.workload = workload;
        this.tree = tree;
    }

    public SimHarness nodes(int tcs, int dss) {
        this.coordinators = tcs;
        this.dataServers = dss;
        return this;
    }

    public SimHarness clients(int n, int txnsEach) {
        this.clients = n;
        this.txnsPerClient = txnsEach;
        return this;
    }

    private long gcEpochMicros = GC_EPOCH_MICROS;

    /** GC epoch length, µs (0: no version garbage collection). */
    public SimHarness gcEpoch(long micros) {
        this.gcEpochMicros = micros;
        return this;
    }

    private long streamPeriodMicros;
    private org.tebaldi.core.history.HistoryStream stream;
    private org.tebaldi.core.history.CheckResult streamed;
    private int maxHeldAfterPass;

    /**
     * Streams the history to the bounded-memory check while the run goes on: nodes hand over every
     * {@code periodMicros} virtual µs, the check prunes as often ({@link #streamed()} holds its verdict).
     */
    public SimHarness streamHistory(long periodMicros) {
        this.streamPeriodMicros = periodMicros;
        return this;
    }

    /** With {@link #streamHistory}: the stream of the last run (e.g. to listen to its chunks), set before start. */
    public org.tebaldi.core.history.HistoryStream stream() {
        return stream;
    }

    /** With {@link #streamHistory}: the streamed verdict of the last run. */
    public org.tebaldi.core.history.CheckResult streamed() {
        return streamed;
    }

    /** With {@link #streamHistory}: most transactions the check held right after a pruning pass. */
    public int maxHeldAfterPass() {
        return maxHeldAfterPass;
    }

    private java.util.function.Consumer<org.tebaldi.core.history.HistoryStream> onStream = s -> { };

    /** With {@link #streamHistory}: called with each run's stream before the cluster starts. */
    public SimHarness onStream(java.util.function.Consumer<org.tebaldi.core.history.HistoryStream> c) {
        this.onStream = c;
        return this;
    }

    private java.util.function.UnaryOperator<ClusterConfig> configure = c -> c;

    /** Adjusts each run's cluster configuration (e.g. {@code c -> c.withCommit(EPOCH, 2_000)}). */
    public SimHarness configure(java.util.function.UnaryOperator<ClusterConfig> c) {
        this.configure = c;
        return this;
    }

    /** Runs {@code c} on each run's simulated runtime before the cluster starts (e.g. to skew node clocks). */
    public SimHarness onSim(java.util.function.BiConsumer<SimulatedRuntime, Cluster> c) {
        this.onSim = c;
        return this;
    }

    private java.util.function.BiConsumer<SimulatedRuntime, Cluster> onSim = (s, c) -> { };

    public SimHarness model(SimulatedRuntime.Model m) {
        this.model = m;
        return this;
    }

    private org.tebaldi.core.runtime.cost.Hardware hardware;

    /** Handlers take virtual CPU time on {@code h}'s machines, charged by its cost table (null: they take none). */
    public SimHarness hardware(org.tebaldi.core.runtime.cost.Hardware h) {
        this.hardware = h;
        return this;
    }

    /** Builds, loads and runs the cluster for one seed; returns it (stopped) for history checks. */
    public Cluster run(long seed, Stats stats) {
        SimulatedRuntime sim = hardware == null ? new SimulatedRuntime(seed, model)
                : new SimulatedRuntime(seed, model, hardware);
        ClusterConfig cfg = configure.apply(new ClusterConfig(workload.database(), tree, coordinators, dataServers,
                null, true).withGcEpoch(gcEpochMicros));
        Cluster cluster = new Cluster(sim, cfg, 64);
        workload.load(cluster);
        if (streamPeriodMicros > 0) {
            stream = cluster.streamHistory(streamPeriodMicros);
            onStream.accept(stream);
            maxHeldAfterPass = 0;
            Runnable[] pass = new Runnable[1];
            pass[0] = () -> {
                stream.check();
                maxHeldAfterPass = Math.max(maxHeldAfterPass, stream.held());
                sim.at(sim.nowMicros() + streamPeriodMicros, pass[0]);
            };
            sim.at(streamPeriodMicros, pass[0]);
        }
        onSim.accept(sim, cluster);
        cluster.start();
        ClosedLoopClients loops = new ClosedLoopClients(workload, clients, txnsPerClient, seed);
        loops.start(sim, cluster::client);
        long limit = 600_000_000L;
        boolean done = sim.runUntil(() -> loops.done() || loops.failure() != null, limit);
        stats.committed = loops.committed();
        stats.aborted = loops.aborted();
        if (loops.failure() != null) {
            throw new AssertionError("seed=" + seed + ": " + loops.failure().getMessage(), loops.failure());
        }
        stats.virtualMicros = sim.nowMicros();
        if (!done) {
            StringBuilder state = new StringBuilder();
            cluster.coordinators().forEach(t -> t.describeLive(5).forEach(l -> state.append("\n    tc: ").append(l)));
            cluster.dataServers().forEach(d -> d.describeLive(5).forEach(l -> state.append("\n    ds")
                    .append(d.dsIndex()).append(": ").append(l)));
            throw new AssertionError("seed=" + seed + ": clients did not finish within " + limit / 1_000_000
                    + " virtual s (" + loops.finished() + "/" + clients + " done) — liveness failure; live:" + state);
        }
        sim.runUntil(sim.nowMicros() + 50_000); // let commit/abort messages land
        for (TransactionCoordinator t : cluster.coordinators()) {
            if (t.liveTransactions() != 0) {
                throw new AssertionError("seed=" + seed + ": " + t.liveTransactions() + " transactions still live at a TC");
            }
        }
        for (DataServer d : cluster.dataServers()) {
            if (d.liveTransactions() != 0) {
                throw new AssertionError("seed=" + seed + ": " + d.liveTransactions() + " transactions still live at ds"
                        + d.dsIndex());
            }
        }
        workload.checkFinal(cluster);
        if (stream != null) {
            cluster.finishHistoryStream();
            try {
                streamed = stream.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
        return cluster;
    }
}
