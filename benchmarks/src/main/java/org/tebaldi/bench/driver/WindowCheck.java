package org.tebaldi.bench.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * How the warm-up ended and whether the measured window was steady (docs/performance.md, "A steady measured
 * window"; {@code summary.json} {@code window}). The window's whole seconds — one sample each, its commits per
 * second from the 100 ms timeline — are tested for a trend (a least-squares line, Commons Math
 * {@link SimpleRegression}: its slope as a share of the mean, and the slope's two-sided t-test p-value) and for
 * their spread (coefficient of variation, sample standard deviation over mean). The window is steady unless
 * <ul>
 *   <li>it has a trend: slope significant at {@value #TREND_ALPHA} and the fitted line moves throughput by at least
 *       {@value #TREND_MIN_CHANGE} of its mean from the window's first second to its last (a still-warming JVM, a
 *       heap or a table that keeps growing), or</li>
 *   <li>its samples swing too much: CV above {@value #CV_MAX} (in the default experiment on a 2-core machine, GC
 *       pauses of 100-250 ms alone gave one-second samples a CV of 0.10-0.34; above 0.35, twenty samples leave the
 *       window's mean uncertain by more than ±15 %, two standard errors).</li>
 * </ul>
 *
 * @param warmupMs       warm-up the run had, ms (start of the run to start of the measured window)
 * @param settled        a warm-up that ends when throughput settles: true if it settled, false if the longest
 *                       warm-up ended it; null for a fixed warm-up
 * @param samples        whole seconds of the measured window tested
 * @param meanTxnPerSec  mean of the samples, txn/s; null below {@value #MIN_SAMPLES} samples
 * @param slopePctPerSec the fitted line's slope, % of the mean per second; null below {@value #MIN_SAMPLES} samples
 *                       or without commits
 * @param slopeP         the slope's p-value (null as for the slope, or when every sample is equal)
 * @param cv             coefficient of variation of the samples (0..); null as for the slope
 * @param steady         whether the window was steady; null below {@value #MIN_SAMPLES} samples (not judged)
 * @param problem        why it was not steady, one sentence for people; null when steady or not judged
 */
public record WindowCheck(long warmupMs, Boolean settled, int samples, Double meanTxnPerSec, Double slopePctPerSec,
                          Double slopeP, Double cv, Boolean steady, String problem) {
    /** Significance level of the trend test. */
    public static final double TREND_ALPHA = 0.05;
    /** Smallest change across the window, as a share of the mean, that counts as a trend. */
    public static final double TREND_MIN_CHANGE = 0.10;
    /** Largest coefficient of variation of a steady window's one-second samples. */
    public static final double CV_MAX = 0.35;
    /** Fewest one-second samples judged. */
    public static final int MIN_SAMPLES = 3;

    private static final long SECOND_NANOS = 1_000_000_000L;

    /**
     * The check of a run's measured window.
     *
     * @param timeline the run's timeline ({@link Metrics#timeline()}): 100 ms buckets from the start of the run
     * @param w        the run's window (its start, where the measured window starts and where it ends)
     * @param settled  as the record's {@code settled}
     */
    static WindowCheck of(List<TimelinePoint> timeline, RunWindow w, Boolean settled) {
        long bucket = Timeline.BUCKET_MS * 1_000_000;
        long from = w.measureStart() - w.start();
        long to = w.end() - w.start();
        List<Double> samples = new ArrayList<>();
        int first = (int) Math.min(timeline.size(), (from + bucket - 1) / bucket);
        int perSample = (int) (SECOND_NANOS / bucket);
        for (int i = first; (i + perSample) * bucket <= to && i + perSample <= timeline.size(); i += perSample) {
            double sum = 0;
            for (int j = i; j < i + perSample; j++) {
                sum += timeline.get(j).throughput();
            }
            samples.add(sum / perSample);
        }
        return judge(from / 1_000_000, settled, samples.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * Judges one-second throughput samples, txn/s, in time order.
     *
     * @param warmupMs as the record's
     * @param settled  as the record's
     */
    public static WindowCheck judge(long warmupMs, Boolean settled, double[] samples) {
        int n = samples.length;
        if (n < MIN_SAMPLES) {
            return new WindowCheck(warmupMs, settled, n, null, null, null, null, null, null);
        }
        double mean = 0;
        for (double y : samples) {
            mean += y / n;
        }
        if (mean <= 0) {
            return new WindowCheck(warmupMs, settled, n, mean, null, null, null, false,
                    "no transaction committed in the measured window");
        }
        SimpleRegression r = new SimpleRegression();
        for (int i = 0; i < n; i++) {
            r.addData(i, samples[i]);
        }
        double slopePct = 100 * r.getSlope() / mean;
        double p = r.getSignificance();
        Double slopeP = Double.isNaN(p) ? null : p;
        double cv = new StandardDeviation().evaluate(samples) / mean;
        double change = change(slopePct, n);
        boolean trend = trend(slopeP, slopePct, n);
        boolean swings = cv > CV_MAX;
        String problem = null;
        if (trend) {
            problem = String.format(Locale.ROOT, "throughput %s %.1f%% of its mean per second (p %s), %.0f%% from "
                    + "the window's first second to its last", slopePct > 0 ? "rose" : "fell", Math.abs(slopePct),
                    formatP(p), 100 * change);
        }
        if (swings) {
            String s = String.format(Locale.ROOT, "one-second throughput swung by a CV of %.1f%% (above %.0f%%)",
                    100 * cv, 100 * CV_MAX);
            problem = problem == null ? s : problem + "; " + s;
        }
        return new WindowCheck(warmupMs, settled, n, mean, slopePct, slopeP, cv, !trend && !swings, problem);
    }

    /** A p-value for people: {@code 0.031}, or {@code <0.001}. */
    public static String formatP(double p) {
        return p < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.2g", p);
    }

    /** Whether the window had a trend (significant, and moving throughput by {@value #TREND_MIN_CHANGE} or more). */
    public boolean trend() {
        return slopePctPerSec != null && trend(slopeP, slopePctPerSec, samples);
    }

    /** Whether the window's one-second samples swung more than {@value #CV_MAX} (coefficient of variation). */
    public boolean swings() {
        return cv != null && cv > CV_MAX;
    }

    private static boolean trend(Double p, double slopePct, int n) {
        return p != null && p < TREND_ALPHA && change(slopePct, n) >= TREND_MIN_CHANGE;
    }

    /** The fitted line's change from the first of {@code n} samples to the last, as a share of the mean. */
    private static double change(double slopePct, int n) {
        return Math.abs(slopePct) / 100 * (n - 1);
    }
}
