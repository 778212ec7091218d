package org.tebaldi.bench.ui;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.tebaldi.autoconf.profiler.ProfilerMonitor;
import org.tebaldi.autoconf.profiler.WindowReport;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.run.Hosting;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.tune.ProfilerExtension;
import org.tebaldi.bench.tune.TuneExtension;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.NodeRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Feeds the live view ({@link LiveState}) from a running experiment: runs beside it as the {@link RunExtension}
 * wrapping the one it would have had anyway (the profiler, the tuning daemon, or none — every call is passed on),
 * sees every tree the cluster swaps to, samples the run once per {@value #PERIOD_MILLIS} ms on its own daemon thread
 * ({@link LiveSampler}), hands the tuning daemon's progress to a {@link TuneFeed}, and wraps the run's
 * {@link RunListener} to show the phase. Does nothing on the run's hot paths: it reads counters the run keeps anyway.
 */
public final class UiExtension implements RunExtension {
    /** Sampling (and pushing to browsers) period, ms. */
    public static final long PERIOD_MILLIS = 1000;

    private final RunExtension inner;
    private final LiveState state;
    private final Runnable push;
    private volatile long runStartNanos;
    private volatile boolean started;
    private volatile Hosting host;
    private volatile ScheduledExecutorService timer;
    private LiveSampler sampler;

    /**
     * @param inner the extension the run has without the live view; a {@link TuneExtension} gets a listener here
     * @param state what the live view shows
     * @param push  hands the state to the browsers (called after each sample)
     */
    public UiExtension(RunExtension inner, LiveState state, Runnable push) {
        this.inner = inner;
        this.state = state;
        this.push = push;
        if (inner instanceof TuneExtension t) {
            t.listen(new TuneFeed(state, () -> started ? ms(System.nanoTime()) : 0, t::swaps, this::ms));
        }
    }

    private long ms(long nanos) {
        return (nanos - runStartNanos) / 1_000_000;
    }

    /** Passes the run's events on to {@code l}, showing load progress and phases as {@code state}'s status. */
    static RunListener listener(LiveState state, RunListener l) {
        return new RunListener() {
            @Override
            public void loading(String stage, long done, long total) {
                state.status(total > 0 ? String.format(java.util.Locale.ROOT, "loading %s %.0f%%", stage,
                        100.0 * done / total) : "loading " + stage);
                l.loading(stage, done, total);
            }

            @Override
            public void loaded(long rows, long millis) {
                state.status(String.format(java.util.Locale.ROOT, "loaded %,d rows in %.1f s", rows, millis / 1e3));
                l.loaded(rows, millis);
            }

            @Override
            public void tick(ProgressTick t) {
                state.status((t.phase().equals("warmup") ? "warm-up" : "measuring") + ", second " + t.second()
                        + (t.totalSeconds() > 0 ? " of at most " + t.totalSeconds() : " (until throughput settles)"));
                l.tick(t);
            }

            @Override
            public void phase(String what) {
                state.status(what);
                l.phase(what);
            }

            @Override
            public void note(String line) {
                l.note(line);
            }
        };
    }

    @Override
    public ClusterConfig configure(ClusterConfig cfg) {
        return inner.configure(cfg);
    }

    @Override
    public boolean allServices() {
        return inner.allServices();
    }

    @Override
    public void beforeStart(Hosting h) {
        host = h;
        inner.beforeStart(new Hosting() {
            @Override
            public void addNode(NodeId id, Actor actor) {
                h.addNode(id, actor);
            }

            @Override
            public NodeRuntime runtime() {
                return h.runtime();
            }

            @Override
            public Map<String, Long> nodeCpuNanos() {
                return h.nodeCpuNanos();
            }

            @Override
            public org.tebaldi.core.storage.StorageStats storage() {
                return h.storage();
            }

            @Override
            public void treeChanged(CcTree tree) {
                state.tree(tree);
                h.treeChanged(tree);
            }
        });
    }

    @Override
    public void started(LiveRun run) {
        runStartNanos = run.startNanos();
        started = true;
        Hosting h = host;
        ProfilerMonitor monitor = inner instanceof ProfilerExtension p ? p.monitor() : null;
        Supplier<List<WindowReport>> profile = monitor == null ? List::of : monitor::reports;
        Supplier<Map<String, Long>> cpu = h == null ? Map::of : h::nodeCpuNanos;
        sampler = new LiveSampler(state, run, cpu, profile, h == null ? () -> null : h::storage);
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tebaldi-ui-sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::sample, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        inner.started(run);
    }

    private void sample() {
        try {
            sampler.sample();
            push.run();
        } catch (RuntimeException x) {
            state.status("live view sampling failed: " + x);
        }
    }

    @Override
    public void windowStarted() {
        inner.windowStarted();
    }

    @Override
    public void windowEnded() {
        inner.windowEnded();
    }

    @Override
    public void stopped() throws InterruptedException {
        stopSampling();
        inner.stopped();
        push.run();
    }

    /** Stops sampling (also when the run failed before {@link #stopped}); waits for a sample under way. */
    void stopSampling() throws InterruptedException {
        ScheduledExecutorService t = timer;
        if (t != null) {
            t.shutdown();
            t.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public void writeFiles(Path dir, RunResult result) throws IOException {
        inner.writeFiles(dir, result);
    }
}
