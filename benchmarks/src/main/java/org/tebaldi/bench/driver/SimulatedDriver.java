package org.tebaldi.bench.driver;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.runtime.CoreScheduler;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.runtime.SimulatedThread;

/**
 * The closed-loop driver in virtual time (docs/simulation.md): the same client loops, back-off and metrics as
 * {@link ClosedLoopDriver}, on a {@link SimulatedRuntime}'s clock. The calling thread runs the simulation second by
 * second (one {@link ProgressTick} per virtual second, with the wall time), ends a warm-up that lasts until
 * throughput settles ({@link SettleWatch}, on virtual seconds; the window starts at the first timeline boundary at
 * least 100 ms after the second in which it settled, as in {@link ClosedLoopDriver}), resets the message counters
 * when warm-up ends, stops the clients at the end and runs on until their last transactions finished (bounded by
 * the drain timeout, in virtual time). With hardware costs, {@link DriverResult#machine()} holds the virtual CPU
 * time of every node and machine over the measured window (no garbage collector in virtual time).
 *
 * <p>A component beside the run (the profiler, the tuning daemon: docs/autoconf.md, "Tuning a simulated cluster")
 * gets a {@link LiveRun} on virtual time once the clients started ({@link #onStart}); blocking code among them runs
 * as a {@link SimulatedThread}, and {@link LiveRun#finish} ends the measured window at the virtual instant it is
 * called. {@link #onWindow}'s hooks run on the simulation thread when the measured window starts and when it ends
 * (normally or by {@code finish}), before the drain.
 */
public final class SimulatedDriver {
    private static final long TICK_NANOS = 1_000_000_000L;

    private final DriverConfig cfg;
    private final Workload workload;
    private final IntFunction<TxnClient> endpoints;
    private final SimulatedRuntime sim;
    private final ProgressListener listener;
    private long[] machineBusyNanos = new long[0];
    private long wallMillis;
    private java.util.function.Consumer<LiveRun> onStart = r -> { };
    private Runnable windowStarts = () -> { };
    private Runnable windowEnds = () -> { };
    private boolean finishRequested;

    /** @param endpoints the client endpoint of logical client {@code i} (e.g. {@code cluster::client}) */
    public SimulatedDriver(DriverConfig cfg, Workload workload, IntFunction<TxnClient> endpoints, SimulatedRuntime sim,
                           ProgressListener listener) {
        this.cfg = cfg;
        this.workload = workload;
        this.endpoints = endpoints;
        this.sim = sim;
        this.listener = listener;
    }

    /**
     * Gives {@code hook} a {@link LiveRun} on virtual time once the clients started (simulation thread, before the
     * first event runs): {@link LiveRun#awaitMeasuring} must be called from a {@link SimulatedThread}, and every
     * method from the simulation thread or such a thread. Call before {@link #run}.
     */
    public SimulatedDriver onStart(java.util.function.Consumer<LiveRun> hook) {
        this.onStart = hook;
        return this;
    }

    /**
     * Runs {@code starts} when the measured window starts and {@code ends} when it ends — at its planned end, or at
     * {@link LiveRun#finish} — before the drain (simulation thread); not {@code ends} when the run is cut short by a
     * failure. Call before {@link #run}.
     */
    public SimulatedDriver onWindow(Runnable starts, Runnable ends) {
        this.windowStarts = starts;
        this.windowEnds = ends;
        return this;
    }

    /**
     * Runs warm-up and the measured window in virtual time, then drains.
     *
     * @throws org.tebaldi.core.runtime.SimulationException if node code threw (naming the seed)
     */
    public DriverResult run() {
        long wall0 = System.nanoTime();
        List<String> types = workload.database().types().stream().map(TxnType::name).toList();
        DriverClock clock = DriverClock.simulated(sim);
        RunControl control = new RunControl(cfg.clients());
        Metrics metrics = new Metrics(types, RunWindow.starting(sim.nowNanos(), cfg.warmupMaxMicros(),
                cfg.durationMicros()));
        JitActivity noJit = new JitActivity(null); // virtual time: the JIT costs nothing here
        SettleWatch settle = cfg.settles() ? new SettleWatch(metrics, cfg.warmupMicros(), noJit) : null;
        long start = metrics.window().start();
        workload.shifts().clock(() -> (sim.nowNanos() - start) / 1000); // workload.shift's time base, virtual
        for (int i = 0; i < cfg.clients(); i++) {
            ClientLoop loop = new ClientLoop(endpoints.apply(i), workload.newClient(i, cfg.clientSeed(i)),
                    Backoff.of(cfg, i), metrics, control,
                    clock);
            clock.execute(loop::start);
        }
        onStart.accept(liveRun(metrics));
        ProgressMeter meter = new ProgressMeter(metrics, settle == null);
        Usage usage = null;
        if (cfg.warmupMaxMicros() == 0) {
            sim.stats().reset();
            usage = new Usage(sim.cores());
            windowStarts.run();
        }
        for (long second = 1; ; second++) {
            RunWindow w = metrics.window();
            long at = Math.min(w.start() + second * TICK_NANOS, w.end());
            if (usage == null && at - w.measureStart() >= 0) {
                runTo(w.measureStart());
                sim.stats().reset();
                usage = new Usage(sim.cores());
                meter.lengthKnown();
                windowStarts.run();
            }
            if (usage == null) {
                runTo(at); // warm-up: finish() takes effect once the window started
            } else if (!runToOrFinish(at)) {
                metrics.endAt(sim.nowNanos()); // finished: the window ends now
                break;
            }
            if (!control.failures().isEmpty()) {
                break;
            }
            if (settle != null && at - w.measureStart() <= 0 && !settle.settled() && settle.secondPassed(second)) {
                // as the real driver: the window starts at the next timeline boundary (the next turn runs to it)
                long next = at + Timeline.BUCKET_MS * 1_000_000;
                if (next - w.measureStart() < 0) {
                    metrics.startMeasuringAt(next);
                }
                meter.lengthKnown();
            }
            ProgressTick t = meter.tick(second, at);
            listener.tick(new ProgressTick(t.second(), t.totalSeconds(), t.phase(), t.txnPerSec(), t.abortRate(),
                    (System.nanoTime() - wall0) / 1_000_000));
            if (at == metrics.window().end()) {
                break;
            }
        }
        RunWindow window = metrics.window();
        if (control.failures().isEmpty()) {
            windowEnds.run();
        }
        Map<String, Long> messages = sim.stats().snapshot();
        MachineUsage machine = usage == null ? null : usage.end(window.measuredMicros() / 1000);
        if (usage != null && usage.cores != null) {
            long[] now = usage.cores.machineBusyNanos();
            for (int i = 0; i < now.length; i++) {
                now[i] -= usage.machines0[i];
            }
            machineBusyNanos = now;
        }
        control.stop();
        boolean early = !control.failures().isEmpty();
        sim.runUntil(() -> control.running() == 0, sim.nowMicros() + cfg.drainTimeoutMillis() * 1000);
        wallMillis = (System.nanoTime() - wall0) / 1_000_000;
        Map<String, TypeStats> perType = metrics.typeStats();
        List<TimelinePoint> timeline = metrics.timeline();
        return new DriverResult(perType, Metrics.total(perType), timeline, window.measuredMicros(),
                messages, control.running(), metrics.errorSamples(), early, control.failures(),
                metrics.abortReasons(), machine, WindowCheck.of(timeline, window,
                        settle == null ? null : settle.settled()));
    }

    /** Virtual CPU time of each machine in the measured window, ns (after {@link #run}; empty without hardware). */
    public long[] machineBusyNanos() {
        return machineBusyNanos.clone();
    }

    /** Wall-clock time {@link #run} took, ms. */
    public long wallMillis() {
        return wallMillis;
    }

    private void runTo(long nanos) {
        sim.runUntil(nanos / 1000);
    }

    /** Runs to {@code nanos}, or until {@link LiveRun#finish} was called; false if it was. */
    private boolean runToOrFinish(long nanos) {
        if (finishRequested || sim.runUntil(() -> finishRequested, nanos / 1000)) {
            return false;
        }
        runTo(nanos);
        return true;
    }

    /** The handle given to {@link #onStart}: counters and the clock of this run, in virtual time. */
    private LiveRun liveRun(Metrics metrics) {
        return new LiveRun() {
            @Override
            public long commits() {
                return metrics.allCommits();
            }

            @Override
            public long[] typeCommits() {
                return metrics.typeCommits();
            }

            @Override
            public long startNanos() {
                return metrics.window().start();
            }

            @Override
            public long measureStartNanos() {
                return metrics.window().measureStart();
            }

            /**
             * Waits in virtual time, checking every sample period ({@value Timeline#BUCKET_MS} ms) whether the
             * measured window started. @throws IllegalStateException outside a {@link SimulatedThread}
             */
            @Override
            public void awaitMeasuring() throws InterruptedException {
                SimulatedThread t = SimulatedThread.current();
                if (t == null) {
                    throw new IllegalStateException("a simulated run is waited for from a SimulatedThread only");
                }
                long left;
                while ((left = metrics.window().measureStart() - t.nowNanos()) > 0) {
                    t.sleepMicros(Math.min(Timeline.BUCKET_MS * 1000, (left + 999) / 1000));
                }
            }

            @Override
            public void finish() {
                finishRequested = true;
            }
        };
    }

    /** Virtual CPU time from the start of the measured window. */
    private static final class Usage {
        /** Nodes whose handler time is broken down by key ({@link MachineUsage#handlerUs}). */
        static final int BUSIEST = 3;
        final CoreScheduler cores;
        final Map<NodeId, Long> nodes0;
        final Map<NodeId, Map<String, Long>> keys0 = new java.util.HashMap<>();
        final long busy0;
        final long[] machines0;

        Usage(CoreScheduler cores) {
            this.cores = cores;
            this.nodes0 = cores == null ? Map.of() : cores.busyNanos();
            this.machines0 = cores == null ? new long[0] : cores.machineBusyNanos();
            this.busy0 = sum(machines0);
            nodes0.keySet().forEach(id -> keys0.put(id, cores.busyByKey(id)));
        }

        MachineUsage end(long windowMs) {
            if (cores == null) {
                return null;
            }
            Map<String, Long> nodeMs = new TreeMap<>();
            Map<NodeId, Long> nodeNs = new java.util.HashMap<>();
            cores.busyNanos().forEach((id, ns) -> {
                nodeNs.put(id, ns - nodes0.getOrDefault(id, 0L));
                nodeMs.put(id.toString(), (ns - nodes0.getOrDefault(id, 0L)) / 1_000_000);
            });
            Map<String, Map<String, Long>> handlerUs = new TreeMap<>();
            nodeNs.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(BUSIEST)
                    .forEach(e -> {
                        Map<String, Long> before = keys0.getOrDefault(e.getKey(), Map.of());
                        Map<String, Long> us = new TreeMap<>();
                        cores.busyByKey(e.getKey()).forEach((k, ns) -> {
                            long d = (ns - before.getOrDefault(k, 0L)) / 1_000;
                            if (d > 0) {
                                us.put(k, d);
                            }
                        });
                        handlerUs.put(e.getKey().toString(), us);
                    });
            int allCores = cores.hardware().machines() * cores.hardware().coresPerMachine();
            return new MachineUsage(allCores, windowMs, (sum(cores.machineBusyNanos()) - busy0) / 1_000_000, nodeMs,
                    0, 0, 0, handlerUs);
        }

        private static long sum(long[] a) {
            long s = 0;
            for (long x : a) {
                s += x;
            }
            return s;
        }
    }
}
