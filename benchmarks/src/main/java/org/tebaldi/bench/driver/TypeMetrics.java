package org.tebaldi.bench.driver;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/** Live measured-window counters and latency recorder (HdrHistogram, µs) of one transaction type; thread-safe. */
final class TypeMetrics {
    /** Latency values above this are clamped, µs (one hour). */
    static final long MAX_LATENCY_MICROS = 3_600_000_000L;

    final LongAdder committed = new LongAdder();
    final LongAdder aborted = new LongAdder();
    final LongAdder errors = new LongAdder();
    final Recorder latency = new Recorder(3);

    void commit(long latencyMicros) {
        committed.increment();
        latency.recordValue(Math.max(0, Math.min(latencyMicros, MAX_LATENCY_MICROS)));
    }

    /** The counters and the latencies recorded so far (call once, at the end). */
    TypeStats snapshot() {
        return new TypeStats(committed.sum(), aborted.sum(), errors.sum(), latency.getIntervalHistogram());
    }
}
