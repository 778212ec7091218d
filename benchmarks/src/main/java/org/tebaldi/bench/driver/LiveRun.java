package org.tebaldi.bench.driver;

/**
 * A handle on a driver run in progress, for a component that runs beside it (e.g. the tuning daemon): live commit
 * counts and the run's clock, and a way to end the run early as a normal end (the measured window then ends now).
 * Thread-safe.
 */
public interface LiveRun {
    /** Commits since the start of the run (warm-up included). */
    long commits();

    /** When the run started, {@link System#nanoTime()}. */
    long startNanos();

    /**
     * When the measured window starts (end of warm-up), {@link System#nanoTime()}; while a warm-up that ends when
     * throughput settles runs, the latest it may start (the longest warm-up).
     */
    long measureStartNanos();

    /**
     * Waits until warm-up ended and the measured window started (returns at once after that).
     *
     * @throws InterruptedException if interrupted while waiting
     */
    void awaitMeasuring() throws InterruptedException;

    /**
     * Per transaction type, in report order: commits and aborted attempts since the first call (warm-up included)
     * and the commit latencies (µs) recorded since the previous call — for one live view, polled about once a
     * second; the first call starts the counting and returns zeros. Empty where the driver does not offer it.
     */
    default java.util.Map<String, LiveTypeSample> typeSample() {
        return java.util.Map.of();
    }

    /**
     * Commits per transaction type since the start of the run (warm-up included), indexed by the database's type
     * id; null where the driver does not offer it.
     */
    default long[] typeCommits() {
        return null;
    }

    /** Ends the run now (no effect during warm-up: it then ends when warm-up does). */
    void finish();
}
