package org.tebaldi.bench.driver;

/**
 * The time line of one run on {@link System#nanoTime()}: warm-up from {@code start} to {@code measureStart}, the
 * measured window from {@code measureStart} (inclusive) to {@code end} (exclusive).
 *
 * @param start        run start, ns
 * @param measureStart end of warm-up, ns (a warm-up that ends when throughput settles: the longest warm-up until
 *                     it ended, {@link #measuringFrom})
 * @param end          end of the run, ns
 */
public record RunWindow(long start, long measureStart, long end) {
    /** A window starting at {@code start}. */
    public static RunWindow starting(long start, long warmupMicros, long durationMicros) {
        long m = start + warmupMicros * 1000;
        return new RunWindow(start, m, m + durationMicros * 1000);
    }

    /** The same run with the measured window (of the same length) starting at {@code measureStart} instead, ns. */
    public RunWindow measuringFrom(long measureStart) {
        return new RunWindow(start, measureStart, measureStart + (end - this.measureStart));
    }

    /** Whether an event at {@code nanos} falls in the measured window. */
    public boolean measured(long nanos) {
        return nanos - measureStart >= 0 && nanos - end < 0;
    }

    /** Length of the measured window, µs. */
    public long measuredMicros() {
        return (end - measureStart) / 1000;
    }

    /** Length of the whole run, ns. */
    public long lengthNanos() {
        return end - start;
    }
}
