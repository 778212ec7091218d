package org.tebaldi.bench.process;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.tebaldi.bench.driver.TimelinePoint;

/**
 * Conditions the process-mode tests wait on instead of fixed moments, so that a loaded machine makes a test slower,
 * not failing: each test's run ends ({@code LiveRun#finish}) once what the test waits for happened, its duration
 * only a bound.
 */
final class Waits {
    private Waits() {
    }

    /**
     * Waits until {@code condition} holds, looking every 10 ms, at most {@code seconds} s (a bound for a stalled
     * machine; the test's assertions then say what is missing). Returns early, with the thread's interrupt flag
     * set, if interrupted.
     */
    static void until(BooleanSupplier condition, int seconds) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean() && System.nanoTime() < end) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Whether at least {@code seconds} s passed since {@code nanos} ({@link System#nanoTime()}). */
    static boolean since(long nanos, double seconds) {
        return System.nanoTime() - nanos >= (long) (seconds * 1e9);
    }

    /** The timeline's throughput (txn/s) summed over its 100 ms buckets starting {@code ms} ms or more into the run. */
    static double commitsAfter(List<TimelinePoint> timeline, long ms) {
        return timeline.stream().filter(p -> p.tMs() - 100 >= ms).mapToDouble(TimelinePoint::throughput).sum();
    }
}
