package org.tebaldi.bench.driver;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Live counters and latency recorders (HdrHistogram, µs) of one transaction type: the measured window's, and the
 * whole run's for live views ({@link LiveRun#typeSample()}); thread-safe.
 */
final class TypeMetrics {
    /** Latency values above this are clamped, µs (one hour). */
    static final long MAX_LATENCY_MICROS = 3_600_000_000L;

    final LongAdder committed = new LongAdder();
    final LongAdder aborted = new LongAdder();
    final LongAdder errors = new LongAdder();
    final Recorder latency = new Recorder(3);
    final LongAdder runCommitted = new LongAdder();
    final LongAdder runAborted = new LongAdder();
    final Recorder runLatency = new Recorder(3);
    /** Commits in the whole run, always counted (the tuning daemon's type mix, {@link LiveRun#typeCommits}). */
    final LongAdder allCommitted = new LongAdder();

    /** A commit anywhere in the run (warm-up included), for a live view (only once one reads them). */
    void runCommit(long latencyMicros) {
        runCommitted.increment();
        runLatency.recordValue(Math.max(0, Math.min(latencyMicros, MAX_LATENCY_MICROS)));
    }

    /** The run-long counters, and the latencies recorded since the previous call (one caller at a time). */
    LiveTypeSample liveSample() {
        return new LiveTypeSample(runCommitted.sum(), runAborted.sum(), runLatency.getIntervalHistogram());
    }

    void commit(long latencyMicros) {
        committed.increment();
        latency.recordValue(Math.max(0, Math.min(latencyMicros, MAX_LATENCY_MICROS)));
    }

    /** The counters and the latencies recorded so far (call once, at the end). */
    TypeStats snapshot() {
        return new TypeStats(committed.sum(), aborted.sum(), errors.sum(), latency.getIntervalHistogram());
    }
}
