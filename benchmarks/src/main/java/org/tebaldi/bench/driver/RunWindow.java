package org.tebaldi.bench.driver;

/**
 * The time line of one run on {@link System#nanoTime()}: warm-up from {@code start} to {@code measureStart}, the
 * measured window from {@code measureStart} (inclusive) to {@code end} (exclusive).
 *
 * @param start        run start, ns
 * @param measureStart end of warm-up, ns
 * @param end          end of the run, ns
 */
public record RunWindow(long start, long measureStart, long end) {
    /** A window starting at {@code start}. */
    public static RunWindow starting(long start, long warmupMicros, long durationMicros) {
        long m = start + warmupMicros * 1000;
        return new RunWindow(start, m, m + durationMicros * 1000);
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
