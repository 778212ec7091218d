package org.tebaldi.bench.driver;

import org.tebaldi.autoconf.stats.SettleDetector;

/**
 * Decides when a warm-up written as {@code warmup: {min, max}} ends (docs/performance.md, "A steady measured
 * window"): one sample per whole second of the run — its commits, from the 100 ms timeline — goes to autoconf's
 * {@link SettleDetector}, which finds throughput settled once the last {@value #WINDOW} samples show no least-squares
 * trend (the slope's p-value at least {@value #ALPHA}) and none of them is zero (a stall) — and only while the JIT
 * compiler is {@linkplain JitActivity#quiet() quiet}: a compiler still busy takes CPU from the nodes and is about
 * to make them faster, so a flat stretch then is not the settled engine. Samples start early
 * enough that the first test falls on the shortest warm-up (or on second {@value #WINDOW}, if later), so that a
 * settle seen before the shortest warm-up is never taken. The longest warm-up is the driver's: it ends warm-up by time.
 * Used by the driver's thread only.
 */
public final class SettleWatch {
    /** Sample period, µs: one whole second of the run (ten timeline buckets), as the progress line shows it. */
    public static final long SAMPLE_MICROS = 1_000_000;
    /**
     * Samples the trend test looks at: the last 10 s (with one-second samples swinging by a CV of 10-35 %, five
     * samples would see only slopes of about one standard deviation per second; docs/performance.md).
     */
    public static final int WINDOW = 10;
    /**
     * Level of the trend test: settled only when the slope's p-value is at least 0.5 — the last 10 s show no hint of
     * a trend, not merely no significant one. One-second samples dip by 25-50 % in GC pauses, and at 0.05 the test
     * let the default experiment's JIT ramp through (docs/performance.md); a flat series still passes within a few
     * seconds, each second being a new test.
     */
    public static final double ALPHA = 0.5;

    private final Metrics metrics;
    private final long firstSecond;
    private final JitActivity jit;
    /** The last {@value #WINDOW} samples, txn/s, oldest first. */
    private final java.util.ArrayDeque<Double> samples = new java.util.ArrayDeque<>();
    private boolean settled;

    /**
     * @param minMicros the shortest warm-up, µs
     * @param jit       the compiler's activity (sampled here, every second)
     */
    SettleWatch(Metrics metrics, long minMicros, JitActivity jit) {
        this.metrics = metrics;
        this.jit = jit;
        long minSeconds = (minMicros + SAMPLE_MICROS - 1) / SAMPLE_MICROS;
        this.firstSecond = Math.max(1, minSeconds - WINDOW + 1);
    }

    /**
     * Second {@code second} (1, 2, ...) of the run has passed: offers its sample if it is due. Call for every second
     * of warm-up in order (the last one ending with the longest warm-up included), once its end has passed.
     *
     * @return whether throughput has settled (then it stays settled)
     */
    boolean secondPassed(long second) {
        jit.secondPassed();
        if (second < firstSecond) {
            return false;
        }
        long sample = SAMPLE_MICROS * 1000;
        long from = metrics.window().start() + (second - 1) * sample;
        samples.addLast(metrics.txnPerSec(from, from + sample));
        if (samples.size() > WINDOW) {
            samples.removeFirst();
        }
        if (samples.size() < WINDOW) {
            return false;
        }
        SettleDetector detector = new SettleDetector(WINDOW, ALPHA, Integer.MAX_VALUE); // the last WINDOW samples
        boolean flat = false;
        for (double s : samples) {
            flat = detector.offer(s);
        }
        settled = flat && jit.quiet();
        return settled;
    }

    /** Whether throughput settled by the end of warm-up (false if the longest warm-up ended it unsettled). */
    boolean settled() {
        return settled;
    }
}
