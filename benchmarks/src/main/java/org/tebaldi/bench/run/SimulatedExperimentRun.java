package org.tebaldi.bench.run;

import org.tebaldi.bench.driver.DriverConfig;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.driver.SimulatedDriver;
import org.tebaldi.bench.experiment.ClusterSpec;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.SimulationSpec;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.runtime.SimulationException;
import org.tebaldi.bench.experiment.DurabilitySpec;
import org.tebaldi.core.runtime.cost.Hardware;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.durability.DurabilityOptions;
import org.tebaldi.server.durability.SimLogStore;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Runs one experiment in {@code cluster.mode: simulated} (docs/simulation.md): the same cluster, workload and
 * checks as {@link ExperimentRun}, on a {@link SimulatedRuntime} whose handlers take the calibrated virtual CPU time
 * of {@code cluster.simulation}'s machines, with virtual-time clients ({@link SimulatedDriver}); with durability on,
 * the real logging and epoch protocol over modelled stores ({@link SimLogStore}). Everything is
 * deterministic per {@code seed} in {@code costMode: model}. Throughput, latencies and the timeline are in virtual
 * time; the result says so ({@link RunResult#simulation()}). At the start it says whether the cost table was
 * measured on a host like this one ({@link CostTableHost}; this host's speed probe is measured once per JVM) and
 * whether it was calibrated with this run's verification ({@link #verifyNote}). With {@code verify} the nodes
 * record and hand over their history as in an embedded run ({@link SimulatedHistory}), and it is checked after
 * the run, outside virtual time. A {@link RunExtension} runs beside it as beside an embedded run — the profiler
 * monitor and the reconfiguration server as simulated nodes on the service machine, the tuning daemon in virtual
 * time (docs/autoconf.md, "Tuning a simulated cluster").
 */
public final class SimulatedExperimentRun {
    /** Virtual time allowed for the last commits to land after the clients stopped, µs. */
    static final long QUIESCE_MICROS = 5_000_000;

    private final Experiment e;
    private final RunListener listener;
    private final RunExtension extension;

    public SimulatedExperimentRun(Experiment experiment, RunListener listener) {
        this(experiment, listener, new RunExtension() { });
    }

    /** As above, with {@code extension} running beside the experiment (its nodes on the simulated runtime). */
    public SimulatedExperimentRun(Experiment experiment, RunListener listener, RunExtension extension) {
        this.e = experiment;
        this.listener = listener;
        this.extension = extension;
    }

    /**
     * @throws RunFailedException if node or workload code threw (the message names the seed, which reproduces it)
     */
    public RunResult run() throws RunFailedException {
        Workload w = e.workload();
        ClusterSpec cs = e.cluster();
        SimulationSpec spec = cs.simulation();
        Hardware hw = spec.hardware(cs.coordinators(), cs.dataServers(), w.name(), e.tree().tree(),
                e.durability().enabled());
        CostTableHost host = CostTableHost.check(spec.costs(), spec.costsFile(),
                org.tebaldi.core.runtime.cost.HostIdentity.here());
        listener.note(host.line());
        String treeNote = treeNote(spec.costs(), w.name(), e.tree().tree());
        if (treeNote != null) {
            listener.note(treeNote);
        }
        String verifyNote = verifyNote(spec.costs(), e.verify());
        if (verifyNote != null) {
            listener.note(verifyNote);
        }
        SimulatedRuntime sim = new SimulatedRuntime(e.seed(), new SimulatedRuntime.Model(0, 0, 0, 0), hw);
        ClusterConfig cc = extension.configure(new ClusterConfig(w.database(), e.tree().tree(), cs.coordinators(),
                cs.dataServers(), cs.partitioner(w.database().catalog(), w.partitioner(cs.dataServers())), e.verify())
                .withOpBatching(cs.batching()).withCommit(cs.commit(), cs.epochMicros())
                .withDurability(durability(e, sim, hw)).withStorage(ExperimentRun.storage(e, null)));
        ClusterLoader loader = new ClusterLoader(w.database().catalog(), cs.dataServers(),
                keys -> new Cluster(sim, cc, keys));
        long t0 = System.nanoTime();
        w.load(loader, listener::loading);
        Cluster cluster = loader.finish();
        long loadMillis = (System.nanoTime() - t0) / 1_000_000;
        listener.loaded(loader.rows(), loadMillis);
        listener.note(String.format(java.util.Locale.ROOT, "simulated cluster: %d machine(s) x %d cores%s, "
                        + "latency %.0f-%.0f us (local %.0f us%s), %.0f Gbit/s, costs %s (%s); times below are virtual",
                spec.machines(), spec.coresPerMachine(), spec.serviceMachine() ? " + 1 service machine" : "",
                hw.latencyMinMicros(), hw.latencyMaxMicros(), hw.localLatencyMicros(),
                spec.embedded() ? ", this machine's emulated network incl. its measured lateness" : "",
                spec.bandwidthGbps(), hw.costs().name(), spec.costMode()));
        SimulatedHistory history = e.verify() ? SimulatedHistory.start(cluster, sim) : null;
        try {
            return measure(cluster, sim, loader, loadMillis, history, spec, hw, host);
        } finally {
            if (history != null) {
                history.close();
            }
        }
    }

    private RunResult measure(Cluster cluster, SimulatedRuntime sim, ClusterLoader loader, long loadMillis,
                              SimulatedHistory history, SimulationSpec spec, org.tebaldi.core.runtime.cost.Hardware hw,
                              CostTableHost host) throws RunFailedException {
        Workload w = e.workload();
        DriverConfig dc = new DriverConfig(e.clients(), e.warmup().minMicros(), e.warmup().maxMicros(),
                e.durationMicros(), e.retry().backoffMicros(), e.retry().maxBackoffMicros(), e.seed(),
                ExperimentRun.DRAIN_TIMEOUT_MILLIS, e.retry().byMechanismMicros());
        SimulatedDriver driver = new SimulatedDriver(dc, w, cluster::client, sim, listener::tick)
                .onStart(extension::started).onWindow(extension::windowStarted, extension::windowEnded);
        DriverResult d;
        try {
            ClusterHosting.start(extension, cluster, sim);
            cluster.start();
            d = driver.run();
            extension.stopped();
            boolean quiet = sim.runUntil(() -> cluster.coordinators().stream().allMatch(t -> t.liveTransactions() == 0)
                    && cluster.dataServers().stream().allMatch(x -> x.liveTransactions() == 0),
                    sim.nowMicros() + QUIESCE_MICROS);
            if (!quiet) {
                listener.phase("the cluster did not go quiet within " + QUIESCE_MICROS / 1000 + " virtual ms");
            }
        } catch (SimulationException x) {
            throw new RunFailedException("simulation failed (seed " + x.seed() + " reproduces it): " + x.getMessage(),
                    x);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted", x);
        } finally {
            cluster.close();
        }
        try {
            return checked(cluster, sim, w, d, driver, loader, loadMillis, history, spec, hw, host);
        } finally {
            // nothing reads the stores any more: close them now, so that a data server's disk tier (RocksDB) stops its
            // background flushes before the JVM exits — one still running then crashed the JVM after the summary
            cluster.dataServers().forEach(ds -> ds.store().close());
        }
    }

    /** The checks after the run (outside virtual time) and the result. */
    private RunResult checked(Cluster cluster, SimulatedRuntime sim, Workload w, DriverResult d, SimulatedDriver driver,
                              ClusterLoader loader, long loadMillis, SimulatedHistory history, SimulationSpec spec,
                              org.tebaldi.core.runtime.cost.Hardware hw, CostTableHost host) throws RunFailedException {
        ExperimentRun.failIfBroken(java.util.List.of(), d);
        Checks checks = Checks.notChecked();
        if (e.verify()) { // after the run, outside virtual time
            listener.phase("verifying");
            if (history != null) {
                try {
                    HistoryCheck.Verdict v = history.finish(cluster, listener);
                    listener.phase(v.line());
                    checks = Verifier.verify(cluster, w, v.serializable(), v.report());
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new RunFailedException("interrupted while checking the history", x);
                }
            } else {
                checks = Verifier.verify(cluster, w);
            }
        }
        return new RunResult(e, d, checks, 1, loader.rows(), loadMillis, info(spec, e.cluster(), d, driver, sim, hw,
                host), EpochStats.of(cluster), cluster.ccCounters()); // counters of the whole run: no window hooks here
    }

    /**
     * The durability options of a simulated run: off, or on with {@link SimLogStore}s charging the cost table's
     * log-store costs (docs/simulation.md, "Durability").
     */
    static DurabilityOptions durability(Experiment e, SimulatedRuntime sim, Hardware hw) {
        DurabilitySpec d = e.durability();
        if (!d.enabled()) {
            return DurabilityOptions.OFF;
        }
        return new DurabilityOptions(true, null, d.epochMicros(), d.sync(), SimLogStore.factory(sim,
                hw.costs().logStore()), d.writeLatencyMicros());
    }

    private static SimulationInfo info(SimulationSpec spec, ClusterSpec cs, DriverResult d, SimulatedDriver driver,
                                       SimulatedRuntime sim, org.tebaldi.core.runtime.cost.Hardware hw,
                                       CostTableHost host) {
        long[] busy = driver.machineBusyNanos();
        double[] util = new double[busy.length];
        String[] hosts = new String[busy.length];
        double windowNanos = d.measuredMicros() * 1000.0;
        for (int i = 0; i < busy.length; i++) {
            util[i] = windowNanos <= 0 ? 0 : busy[i] / (windowNanos * spec.coresPerMachine());
            hosts[i] = i < spec.machines() ? spec.describeMachine(i, cs.coordinators(), cs.dataServers())
                    : "services";
        }
        return new SimulationInfo(spec.allMachines(), spec.coresPerMachine(), hw.costs().name(), spec.costMode(),
                sim.nowMicros() / 1000, driver.wallMillis(), util, hosts, host);
    }

    /**
     * What the costs of a run of {@code workload} under {@code tree} are (docs/simulation.md, "Costs by tree"): its
     * own section of {@code table}, found by its shape when its options differ from the calibrated tree's; or, when
     * the table has sections for other trees of that workload but none for this one, that it gets the workload's
     * pooled costs; null when the table has no section for the workload.
     */
    public static String treeNote(org.tebaldi.core.runtime.cost.CostTable table, String workload,
                                  org.tebaldi.core.tree.CcTree tree) {
        if (table.trees().stream().noneMatch(t -> t.workload().equals(workload))) {
            return null;
        }
        return table.treeSection(workload, tree.canonical(), tree.shape())
                .map(t -> "costs: the tree's own section of the cost table (" + t.label() + ", fitted from "
                        + String.join(", ", t.experiments()) + ")" + (t.tree().equals(tree.canonical()) ? ""
                        : "; same shape, but this run's node options differ from the calibrated tree's"))
                .orElse("NOTE: cost table '" + table.name() + "' has sections for other " + workload + " trees but "
                        + "none for this one: it charges the workload's costs pooled over those trees (calibrate "
                        + "this tree too: scripts/tebaldi calibrate with its experiment among the files)");
    }

    /**
     * A note when {@code table} was calibrated with verification other than this run's (null when they agree): a
     * table calibrated with {@code verify} on charges every handler the history recording and the overhead factor
     * the spill thread's CPU (docs/simulation.md, "Calibration"), which a run without verification does not pay,
     * and one calibrated without it leaves them out. Tables that record no {@code calibration.verify} were
     * calibrated with verification off (calibrate forced it off before it recorded the setting).
     */
    public static String verifyNote(org.tebaldi.core.runtime.cost.CostTable table, boolean verify) {
        java.util.Set<Boolean> on = new java.util.TreeSet<>();
        if (table.calibration().get("verify") instanceof java.util.Map<?, ?> m && !m.isEmpty()) {
            m.values().forEach(v -> on.add(!"off".equals(String.valueOf(v))));
        } else {
            on.add(false);
        }
        String name = table.name().contains("/") ? table.name().substring(0, table.name().indexOf('/'))
                : table.name();
        if (on.size() > 1) {
            return "NOTE: cost table '" + name + "' was calibrated from runs with and without verification (its "
                    + "calibration.verify): its costs mix runs that recorded their history and runs that did not";
        }
        boolean tableOn = on.contains(true);
        if (tableOn == verify) {
            return null;
        }
        return tableOn ? "NOTE: cost table '" + name + "' was calibrated with verification on (its handler costs "
                + "include recording the history, its overhead the spill thread); this run has verify off, so the "
                + "simulation charges it for work it does not do (calibrate with --set verify=false for such runs)"
                : "NOTE: cost table '" + name + "' was calibrated with verification off; this run has verify on, so "
                + "the simulation leaves out what a real run pays to record and spill its history (calibrate with the "
                + "experiments' own verify setting: scripts/tebaldi calibrate without --set verify=false)";
    }
}
