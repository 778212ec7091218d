package org.tebaldi.autoconf.tuning;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;
import org.tebaldi.autoconf.configurator.Bottleneck;
import org.tebaldi.autoconf.configurator.Configurator;
import org.tebaldi.autoconf.profiler.ConflictEdge;
import org.tebaldi.autoconf.profiler.ProfilerMonitor;
import org.tebaldi.autoconf.profiler.WindowReport;
import org.tebaldi.autoconf.reconfig.ReconfigServer;
import org.tebaldi.autoconf.reconfig.SwapResult;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.tree.CcTree;

/**
 * The configurator's view of a running cluster (dissertation §5.1, the automatic configuration manager): the
 * analysis stage sums the profiler monitor's window reports over an analysis period, the testing stage samples the
 * clients' commit counter every {@value #SAMPLE_MICROS} µs (txn/s per sample; the configurator waits for
 * throughput to settle after a swap and averages windows of samples), and swaps go through the reconfiguration
 * server — online update (falling back to partial restart where it cannot apply) or always partial restart. Blocks
 * the calling thread (the tuning daemon's own, never a node's) on its {@link TuningClock}: real time beside a live
 * cluster, virtual time on a simulated one (docs/autoconf.md, "Tuning a simulated cluster"), where samples, analysis
 * periods and swap durations are all virtual.
 */
public final class LiveTarget implements Configurator.Target {
    /** The sample period, µs. */
    public static final long SAMPLE_MICROS = 100_000;

    /**
     * Timing and protocol.
     *
     * @param analysisMicros   profiling period per analysis, µs
     * @param online           online update (with fallback) rather than partial restart
     * @param forceAbortMicros partial restart: force-abort transactions still running this long into clean-up (0:
     *                         wait for them)
     */
    public record Settings(long analysisMicros, boolean online, long forceAbortMicros) {
    }

    private final ProfilerMonitor monitor;
    private final ReconfigServer server;
    private final Database db;
    private final LongSupplier commits;
    private final Settings s;
    private final TuningClock clock;
    private final List<SwapEvent> swaps = new CopyOnWriteArrayList<>();
    private volatile java.util.function.Supplier<long[]> typeCommits = () -> null;

    /** On the real clock. @param commits committed transactions so far, from any thread (e.g. the driver's counter) */
    public LiveTarget(ProfilerMonitor monitor, ReconfigServer server, Database db, LongSupplier commits, Settings s) {
        this(monitor, server, db, commits, s, TuningClock.REAL);
    }

    /**
     * @param commits committed transactions so far (e.g. the driver's counter), read on the calling thread
     * @param clock   where samples, analysis periods and swaps are timed and waited for
     */
    public LiveTarget(ProfilerMonitor monitor, ReconfigServer server, Database db, LongSupplier commits, Settings s,
                      TuningClock clock) {
        this.monitor = monitor;
        this.server = server;
        this.db = db;
        this.commits = commits;
        this.s = s;
        this.clock = clock;
    }

    @Override
    public Bottleneck analyze() throws InterruptedException {
        List<WindowReport> before = monitor.reports();
        WindowReport last = before.isEmpty() ? null : before.get(before.size() - 1);
        clock.sleepMicros(s.analysisMicros());
        List<WindowReport> after = monitor.reports();
        int from = last == null ? 0 : indexOf(after, last) + 1;
        return summarize(after.subList(from, after.size()), db);
    }

    private static int indexOf(List<WindowReport> l, WindowReport r) {
        for (int i = l.size() - 1; i >= 0; i--) {
            if (l.get(i) == r) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The bottleneck over several windows: edge scores summed and divided by the windows' total length (null if
     * nothing blocked). Public for targets that drive a simulated cluster the same way.
     */
    public static Bottleneck summarize(List<WindowReport> windows, Database db) {
        Map<ConflictEdge, Long> sum = new LinkedHashMap<>();
        long micros = 0;
        for (WindowReport w : windows) {
            micros += w.endMicros() - w.startMicros();
            w.edges().forEach((e, v) -> sum.merge(e, v, Long::sum));
        }
        if (sum.isEmpty() || micros <= 0) {
            return null;
        }
        double perSec = 1e6 / micros;
        List<Map.Entry<ConflictEdge, Long>> sorted = new ArrayList<>(sum.entrySet());
        sorted.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        List<Bottleneck.Edge> edges = new ArrayList<>();
        for (Map.Entry<ConflictEdge, Long> e : sorted) {
            edges.add(new Bottleneck.Edge(db.type(e.getKey().a()).name(), db.type(e.getKey().b()).name(),
                    e.getValue() * perSec));
        }
        return new Bottleneck(edges);
    }

    @Override
    public double[] sample(int count) throws InterruptedException {
        double[] out = new double[count];
        long t0 = clock.nanos();
        long c0 = commits.getAsLong();
        for (int i = 0; i < count; i++) {
            long due = t0 + SAMPLE_MICROS * 1000;
            long wait = due - clock.nanos();
            if (wait > 0) {
                clock.sleepMicros((wait + 999) / 1000);
            }
            long t1 = clock.nanos();
            long c1 = commits.getAsLong();
            out[i] = (c1 - c0) * 1e9 / Math.max(1, t1 - t0);
            t0 = t1;
            c0 = c1;
        }
        return out;
    }

    @Override
    public String swap(CcTree tree) throws InterruptedException {
        long t0 = clock.nanos();
        SwapResult r;
        try {
            r = clock.await(s.online() ? server.onlineUpdate(tree, s.forceAbortMicros())
                    : server.partialRestart(tree, s.forceAbortMicros()));
        } catch (ExecutionException e) {
            throw new IllegalStateException("reconfiguration to " + tree.describe() + " failed", e.getCause());
        }
        swaps.add(new SwapEvent(t0, clock.nanos(), tree.describe(), r));
        return r.describe();
    }

    /**
     * Where committed transactions per type come from (cumulative, by type id; e.g. the driver's counters): the
     * daemon's type mix ({@link Configurator.Target#typeCommits}). Returns this.
     */
    public LiveTarget typeCommits(java.util.function.Supplier<long[]> counts) {
        this.typeCommits = counts;
        return this;
    }

    @Override
    public long[] typeCommits() {
        return typeCommits.get();
    }

    /**
     * This JVM's collector time (all {@link java.lang.management.GarbageCollectorMXBean}s) and heap in use, on the
     * real clock; null in virtual time, where no collector runs. Beside a processes-mode cluster it is the runner's
     * JVM, not the nodes'.
     */
    @Override
    public Configurator.EngineState engine() {
        if (clock != TuningClock.REAL) {
            return null;
        }
        long gc = 0;
        for (java.lang.management.GarbageCollectorMXBean b
                : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, b.getCollectionTime());
        }
        return new Configurator.EngineState(System.nanoTime(), gc,
                java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }

    /** Every swap so far, in order. */
    public List<SwapEvent> swaps() {
        return List.copyOf(swaps);
    }
}
