package org.tebaldi.bench.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.runtime.MessageCounters;

/**
 * The closed-loop driver (docs/architecture.md, "Transactions"; docs/experiments.md): {@code clients} logical clients spread over the cluster's
 * client endpoints, no think time, aborted attempts retried after a back-off. The calling thread keeps time: it
 * ends a warm-up that lasts until throughput settles ({@link SettleWatch}: at the first 100 ms timeline boundary
 * at least 100 ms after the decision, taken when the second in which it settled ended, so that the measured window
 * starts on a bucket and after every thread sees it),
 * resets the message counters when warm-up ends, reports one {@link ProgressTick} per second, stops the clients
 * at the end (or early, when {@code failed} turns true or workload code threw), then waits — bounded by the
 * drain timeout, or 1 s after a failure — for in-flight transactions. It never blocks the cluster's threads;
 * retries wait on the driver's own timer thread. The caller stops the cluster afterwards.
 */
public final class ClosedLoopDriver {
    private static final long TICK_NANOS = 1_000_000_000L;
    private static final long POLL_MILLIS = 100;
    /** Drain bound when the run was cut short by a failure, ms. */
    private static final long EARLY_DRAIN_MILLIS = 1000;

    private final DriverConfig cfg;
    private final Workload workload;
    private final IntFunction<TxnClient> endpoints;
    private final MessageCounters stats;
    private final ProgressListener listener;
    private final BooleanSupplier failed;
    private java.util.function.Consumer<LiveRun> onStart = r -> { };
    private volatile boolean finishRequested;
    private MachineMonitor machine;
    private JitActivity jit = JitActivity.ofThisJvm();
    private MachineUsage usage;
    private Runnable windowStarts = () -> { };
    private Runnable windowEnds = () -> { };
    private boolean windowOpen;
    private final java.util.concurrent.CountDownLatch windowStarted = new java.util.concurrent.CountDownLatch(1);

    /**
     * @param endpoints the client endpoint of logical client {@code i} (e.g. {@code cluster::client}, which spreads
     *                  clients round-robin over the coordinators)
     * @param stats     the message counters (reset when warm-up ends, read when the window ends): the runtime's, or
     *                  the whole cluster's in process mode; null to count nothing
     * @param failed    polled about every 100 ms; true cuts the run short (e.g. a node threw)
     */
    public ClosedLoopDriver(DriverConfig cfg, Workload workload, IntFunction<TxnClient> endpoints, MessageCounters stats,
                            ProgressListener listener, BooleanSupplier failed) {
        this.cfg = cfg;
        this.workload = workload;
        this.endpoints = endpoints;
        this.stats = stats;
        this.listener = listener;
        this.failed = failed;
    }

    /**
     * Gives {@code hook} a {@link LiveRun} handle once the clients started (on the driver's thread; the hook must
     * return quickly, e.g. start its own thread). Call before {@link #run}.
     */
    public ClosedLoopDriver onStart(java.util.function.Consumer<LiveRun> hook) {
        this.onStart = hook;
        return this;
    }

    /**
     * Runs {@code starts} when the measured window starts (right after the {@link #monitor} read its clocks) and
     * {@code ends} when it ends (right before the monitor reads them again), both on the driver's thread; they must
     * return quickly. {@code ends} is not run when the run is cut short by a failure. Call before {@link #run}.
     */
    public ClosedLoopDriver onWindow(Runnable starts, Runnable ends) {
        this.windowStarts = starts;
        this.windowEnds = ends;
        return this;
    }

    /**
     * The JIT compiler whose quiet a settling warm-up waits for ({@link SettleWatch}; default: this JVM's). Call
     * before {@link #run}.
     */
    public ClosedLoopDriver jit(JitActivity j) {
        this.jit = j;
        return this;
    }

    /** Measures the machine's CPU time and GC pauses over the measured window ({@link DriverResult#machine()}). */
    public ClosedLoopDriver monitor(MachineMonitor m) {
        this.machine = m;
        return this;
    }

    /**
     * Runs warm-up and the measured window, then drains.
     *
     * @throws InterruptedException if the calling thread is interrupted (clients are stopped first)
     */
    public DriverResult run() throws InterruptedException {
        List<ClientSource> sources = new ArrayList<>(cfg.clients());
        for (int i = 0; i < cfg.clients(); i++) {
            sources.add(workload.newClient(i, cfg.clientSeed(i)));
        }
        List<String> types = workload.database().types().stream().map(TxnType::name).toList();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tebaldi-driver-timer");
            t.setDaemon(true);
            return t;
        });
        RunControl control = new RunControl(cfg.clients());
        if (cfg.warmupMaxMicros() == 0) {
            measureStarts();
        }
        RunWindow window = RunWindow.starting(System.nanoTime(), cfg.warmupMaxMicros(), cfg.durationMicros());
        workload.shifts().clock(() -> (System.nanoTime() - window.start()) / 1000); // workload.shift's time base
        Metrics metrics = new Metrics(types, window);
        SettleWatch settle = cfg.settles() ? new SettleWatch(metrics, cfg.warmupMicros(), jit) : null;
        try {
            for (int i = 0; i < cfg.clients(); i++) {
                new ClientLoop(endpoints.apply(i), sources.get(i), Backoff.of(cfg, i), metrics, control,
                        DriverClock.real(timer)).start();
            }
            onStart.accept(new LiveRun() {
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
                    return window.start();
                }

                @Override
                public long measureStartNanos() {
                    return metrics.window().measureStart();
                }

                @Override
                public void awaitMeasuring() throws InterruptedException {
                    windowStarted.await();
                }

                @Override
                public java.util.Map<String, LiveTypeSample> typeSample() {
                    return metrics.liveSample();
                }

                @Override
                public void finish() {
                    finishRequested = true;
                }
            });
            boolean early = keepTime(metrics, control, settle);
            Map<String, Long> messages = stats == null ? Map.of() : stats.snapshot();
            control.stop();
            int inFlight = control.await(early ? Math.min(EARLY_DRAIN_MILLIS, cfg.drainTimeoutMillis())
                    : cfg.drainTimeoutMillis());
            Map<String, TypeStats> perType = metrics.typeStats();
            List<TimelinePoint> timeline = metrics.timeline();
            return new DriverResult(perType, Metrics.total(perType), timeline, metrics.window().measuredMicros(),
                    messages, inFlight, metrics.errorSamples(), early, control.failures(), metrics.abortReasons(),
                    usage, WindowCheck.of(timeline, metrics.window(), settle == null ? null : settle.settled()));
        } finally {
            control.stop();
            timer.shutdownNow();
        }
    }

    private void measureStarts() {
        if (stats != null) {
            stats.reset();
        }
        if (machine != null) {
            machine.start();
        }
        windowOpen = true;
        windowStarts.run();
        windowStarted.countDown();
    }

    private void measureEnds() {
        if (windowOpen) {
            windowOpen = false;
            windowEnds.run();
        }
        if (machine != null && usage == null) {
            usage = machine.stop();
        }
    }

    /**
     * Sleeps through the run, ticking each second (and at the end of a partial last second) and ending a warm-up
     * that lasts until throughput settles; true if cut short.
     */
    private boolean keepTime(Metrics m, RunControl control, SettleWatch settle) throws InterruptedException {
        ProgressMeter meter = new ProgressMeter(m, settle == null);
        boolean measuring = windowOpen;
        long second = 0;
        while (true) {
            long now = System.nanoTime();
            RunWindow w = m.window();
            if (!measuring && now - w.measureStart() >= 0) {
                measureStarts();
                measuring = true;
                meter.lengthKnown();
            }
            long nextTick = w.start() + (second + 1) * TICK_NANOS;
            while (now - nextTick >= 0 && nextTick - w.end() <= 0) {
                second++;
                if (settle != null && nextTick - w.measureStart() <= 0 && !settle.settled()
                        && settle.secondPassed(second)) {
                    w = endWarmup(m);
                    meter.lengthKnown();
                }
                listener.tick(meter.tick(second, nextTick));
                nextTick += TICK_NANOS;
            }
            if (now - w.end() >= 0) {
                measureEnds();
                if (second < meter.totalSeconds()) {
                    listener.tick(meter.tick(meter.totalSeconds(), w.end()));
                }
                return false;
            }
            if (finishRequested && measuring) {
                measureEnds();
                m.endAt(now);
                return false;
            }
            if (failed.getAsBoolean() || !control.failures().isEmpty()) {
                return true;
            }
            long wake = Math.min(nextTick, measuring ? w.end() : w.measureStart());
            Thread.sleep(Math.max(1, Math.min(POLL_MILLIS, (wake - now + 999_999) / 1_000_000)));
        }
    }

    /**
     * Throughput settled: the measured window starts at the first timeline boundary at least one bucket (100 ms)
     * after now — well after this decision is published, so that no event already counted changes sides — unless
     * the longest warm-up ends first.
     */
    private static RunWindow endWarmup(Metrics m) {
        RunWindow w = m.window();
        long bucket = Timeline.BUCKET_MS * 1_000_000;
        long at = w.start() + ((System.nanoTime() + bucket - w.start() + bucket - 1) / bucket) * bucket;
        if (at - w.measureStart() < 0) {
            m.startMeasuringAt(at);
        }
        return m.window();
    }
}
