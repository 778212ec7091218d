package org.tebaldi.bench.driver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * What the driver measures (docs/experiments.md, "summary.json"): per type, commits, aborted attempts, errors and commit latency in the
 * measured window; run-long totals for the progress line; the commit timeline over the whole run. An event is in
 * the window by the time it happened, the same instant deciding its timeline bucket. Thread-safe; called from the
 * cluster's threads, so every method is cheap and never blocks.
 */
public final class Metrics {
    /** Error messages kept for the report. */
    static final int ERROR_SAMPLES = 10;

    private volatile RunWindow window;
    private final Map<String, TypeMetrics> types = new ConcurrentHashMap<>();
    private final List<String> typeOrder;
    private final Timeline timeline;
    private final LongAdder allCommits = new LongAdder();
    private final LongAdder allAborts = new LongAdder();
    private final LongAdder allErrors = new LongAdder();
    private final ConcurrentLinkedQueue<String> errorSamples = new ConcurrentLinkedQueue<>();
    private final AtomicInteger sampled = new AtomicInteger();
    private final AbortReasons abortReasons = new AbortReasons();
    /** Whether a live view reads per-type counters ({@link #liveSample}); until then nothing extra is counted. */
    private volatile boolean live;

    /** @param typeNames the database's transaction types, in report order */
    public Metrics(List<String> typeNames, RunWindow window) {
        this.window = window;
        this.typeOrder = List.copyOf(typeNames);
        this.timeline = new Timeline(window.start(), window.lengthNanos());
        for (String t : typeNames) {
            types.put(t, new TypeMetrics());
        }
    }

    private TypeMetrics of(String type) {
        return types.computeIfAbsent(type, t -> new TypeMetrics());
    }

    /** A transaction of {@code type} committed at {@code now}; its first attempt started at {@code firstStart} (ns). */
    public void commit(String type, long firstStart, long now) {
        allCommits.increment();
        timeline.record(now);
        TypeMetrics m = of(type);
        m.allCommitted.increment();
        if (live) {
            m.runCommit((now - firstStart) / 1000);
        }
        if (window.measured(now)) {
            m.commit((now - firstStart) / 1000);
        }
    }

    /** An attempt of {@code type} aborted (retryable) at {@code now} (ns) with {@code reason}. */
    public void abort(String type, long now, String reason) {
        allAborts.increment();
        TypeMetrics m = of(type);
        if (live) {
            m.runAborted.increment();
        }
        if (window.measured(now)) {
            m.aborted.increment();
            abortReasons.add(reason);
        }
    }

    /** Aborted attempts in the measured window by normalized cause, most frequent first. */
    public Map<String, Long> abortReasons() {
        return abortReasons.snapshot();
    }

    /** An attempt of {@code type} failed for good at {@code now} (ns) because of {@code cause}. */
    public void error(String type, long now, Throwable cause) {
        allErrors.increment();
        if (window.measured(now)) {
            of(type).errors.increment();
        }
        if (sampled.getAndIncrement() < ERROR_SAMPLES) {
            errorSamples.add(type + ": " + cause);
        }
    }

    /**
     * Ends the measured window at {@code endNanos} if that is earlier than planned (the run was finished early as
     * a normal end); events after it no longer count.
     */
    public void endAt(long endNanos) {
        RunWindow w = window;
        if (endNanos - w.end() < 0) {
            window = new RunWindow(w.start(), w.measureStart(), Math.max(endNanos, w.measureStart()));
        }
    }

    /**
     * Warm-up ends at {@code nanos} (a warm-up that ends when throughput settled, {@link SettleWatch}): the measured
     * window, of the planned length, starts then. Call only with an instant later than now and not later than the
     * planned end of warm-up, so that no event already counted changes sides.
     */
    public void startMeasuringAt(long nanos) {
        window = window.measuringFrom(nanos);
    }

    /**
     * Commits per second between two bucket boundaries of the timeline ({@code fromNanos} and {@code toNanos}: the
     * run's start plus whole 100 ms buckets), txn/s.
     */
    double txnPerSec(long fromNanos, long toNanos) {
        return timeline.commits(fromNanos, toNanos) * 1e9 / (toNanos - fromNanos);
    }

    /** The run's window, with its start moved by {@link #startMeasuringAt} and its end by {@link #endAt}. */
    public RunWindow window() {
        return window;
    }

    /** Commits per type since the run started (warm-up included), in the report order of the constructor's names. */
    public long[] typeCommits() {
        long[] out = new long[typeOrder.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = of(typeOrder.get(i)).allCommitted.sum();
        }
        return out;
    }

    /** Commits since the start of the run, warm-up and drain included. */
    public long allCommits() {
        return allCommits.sum();
    }

    /** Aborted attempts since the start of the run. */
    public long allAborts() {
        return allAborts.sum();
    }

    /** Errors since the start of the run. */
    public long allErrors() {
        return allErrors.sum();
    }

    /** The first {@value #ERROR_SAMPLES} error messages, as {@code type: exception}. */
    public List<String> errorSamples() {
        return new ArrayList<>(errorSamples);
    }

    /** The timeline, 100 ms buckets over the whole run (up to an early end). */
    public List<TimelinePoint> timeline() {
        List<TimelinePoint> all = timeline.points();
        long ms = (window.end() - window.start() + 999_999) / 1_000_000;
        int keep = (int) Math.min(all.size(), (ms + Timeline.BUCKET_MS - 1) / Timeline.BUCKET_MS);
        return all.subList(0, Math.max(1, keep));
    }

    /**
     * Per type, in report order: commits and aborted attempts, and the commit latencies recorded since the previous
     * call (for one live view; {@link LiveRun#typeSample()}). Counting starts with the first call (which returns
     * zeros), so that runs nobody watches pay nothing for it.
     */
    public Map<String, LiveTypeSample> liveSample() {
        live = true;
        Map<String, LiveTypeSample> m = new LinkedHashMap<>();
        for (String t : typeOrder) {
            m.put(t, types.get(t).liveSample());
        }
        types.forEach((t, x) -> {
            if (!m.containsKey(t)) {
                m.put(t, x.liveSample());
            }
        });
        return m;
    }

    /** Per-type measured statistics, in report order (database types first). Call once, at the end. */
    public Map<String, TypeStats> typeStats() {
        Map<String, TypeStats> m = new LinkedHashMap<>();
        for (String t : typeOrder) {
            m.put(t, types.get(t).snapshot());
        }
        types.forEach((t, x) -> {
            if (!m.containsKey(t)) {
                m.put(t, x.snapshot());
            }
        });
        return m;
    }

    /** The sum of per-type statistics (latency histograms added). */
    public static TypeStats total(Map<String, TypeStats> perType) {
        long c = 0;
        long a = 0;
        long e = 0;
        Histogram h = new Histogram(3);
        for (TypeStats s : perType.values()) {
            c += s.committed();
            a += s.aborted();
            e += s.errors();
            h.add(s.latencyMicros());
        }
        return new TypeStats(c, a, e, h);
    }
}
