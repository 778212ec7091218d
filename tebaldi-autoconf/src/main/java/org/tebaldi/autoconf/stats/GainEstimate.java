package org.tebaldi.autoconf.stats;

import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * A candidate's throughput gain over the incumbent tree with a confidence interval (docs/autoconf.md, "Comparisons
 * with confidence"). The unit of observation is a window's mean throughput, not a 100 ms sample: consecutive
 * samples are correlated (lag-1 autocorrelation about 0.5 on TPC-C, GC pauses span several samples), so treating
 * them as independent would make intervals too narrow. Gains are estimated on the log scale (machine noise is
 * multiplicative) and reported as relative changes {@code exp(d) - 1}; intervals use Student's t (Apache Commons
 * Math). Two estimators:
 * <ul>
 *   <li>{@link #interleaved}, for windows measured in turn (A B A B A B A): each candidate window is compared with
 *       the incumbent windows next to it, so a shift of the machine's speed between rounds (another tenant
 *       starting) cancels out — the comparisons' estimator;</li>
 *   <li>{@link #of}, for two independent groups of windows (Welch's t-test) — the daemon's drift test.</li>
 * </ul>
 *
 * @param incumbentTxnPerSec mean of the incumbent's window means, txn/s
 * @param candidateTxnPerSec mean of the candidate's window means, txn/s
 * @param gain               point estimate of the relative gain (0.10 = +10%)
 * @param low                lower end of the two-sided interval at {@code confidence}, relative gain
 * @param high               upper end, relative gain
 * @param confidence         the interval's level, e.g. 0.9 (so {@code low > x} is a one-sided test at 5%)
 * @param incumbentWindows   windows measured on the incumbent
 * @param candidateWindows   windows measured on the candidate
 */
public record GainEstimate(double incumbentTxnPerSec, double candidateTxnPerSec, double gain, double low,
                           double high, double confidence, int incumbentWindows, int candidateWindows) {
    /**
     * Estimates the gain of {@code candidate} over {@code incumbent} from two independent groups of windows
     * (Welch's t-test: {@code d = mean(ln B) - mean(ln A)}, Welch–Satterthwaite degrees of freedom).
     *
     * @param incumbent  window means of the incumbent, txn/s (at least 2, each &gt; 0)
     * @param candidate  window means of the candidate, txn/s (at least 2, each &gt; 0)
     * @param confidence interval level in (0, 1)
     * @throws IllegalArgumentException on fewer than two windows a side, a non-positive mean or a bad level
     */
    public static GainEstimate of(List<Double> incumbent, List<Double> candidate, double confidence) {
        if (incumbent.size() < 2 || candidate.size() < 2) {
            throw new IllegalArgumentException("a gain interval needs at least two windows per tree, got "
                    + incumbent.size() + " and " + candidate.size());
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must lie in (0, 1), got " + confidence);
        }
        double[] a = logs(incumbent);
        double[] b = logs(candidate);
        double va = variance(a) / a.length;
        double vb = variance(b) / b.length;
        double d = mean(b) - mean(a);
        double se = Math.sqrt(va + vb);
        double half = 0;
        if (se > 0) {
            double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
            half = new TDistribution(null, df).inverseCumulativeProbability((1 + confidence) / 2) * se;
        }
        return new GainEstimate(meanOf(incumbent), meanOf(candidate), Math.expm1(d), Math.expm1(d - half),
                Math.expm1(d + half), confidence, a.length, b.length);
    }

    /**
     * Estimates the gain from windows measured in turn: {@code incumbent.get(i)} was measured just before
     * {@code candidate.get(i)} and {@code incumbent.get(i + 1)}, if present, just after it (A B A B A B A, or
     * A B A B A B). Each candidate window gives a difference {@code d_i = ln B_i - mean(ln of its neighbours)}; the
     * gain is {@code exp(mean d) - 1} and its interval is Student's t with {@code n - 1} degrees of freedom on the
     * standard error of the mean difference, widened by the design effect of neighbours shared by consecutive
     * differences ({@code sqrt(1 + (n - 1) / 3n)}, exact for equal window variances).
     *
     * @param incumbent  incumbent window means in time order, txn/s (as many as, or one more than, the candidate's)
     * @param candidate  candidate window means in time order, txn/s (at least 2)
     * @param confidence interval level in (0, 1)
     * @throws IllegalArgumentException on fewer than two candidate windows, a mismatched incumbent count, a
     *                                  non-positive mean or a bad level
     */
    public static GainEstimate interleaved(List<Double> incumbent, List<Double> candidate, double confidence) {
        int n = candidate.size();
        if (n < 2 || (incumbent.size() != n && incumbent.size() != n + 1)) {
            throw new IllegalArgumentException("interleaved windows need at least two candidate windows and as many "
                    + "incumbent windows or one more, got " + incumbent.size() + " and " + n);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must lie in (0, 1), got " + confidence);
        }
        double[] a = logs(incumbent);
        double[] b = logs(candidate);
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = b[i] - (i + 1 < a.length ? (a[i] + a[i + 1]) / 2 : a[i]);
        }
        double mean = mean(d);
        double se = Math.sqrt(variance(d) / n * (1 + (n - 1) / (3.0 * n)));
        double half = se > 0 ? new TDistribution(null, n - 1).inverseCumulativeProbability((1 + confidence) / 2) * se
                : 0;
        return new GainEstimate(meanOf(incumbent), meanOf(candidate), Math.expm1(mean), Math.expm1(mean - half),
                Math.expm1(mean + half), confidence, a.length, n);
    }

    /** Whether the gain is significantly above {@code minGain}: the interval's lower end exceeds it. */
    public boolean above(double minGain) {
        return low > minGain;
    }

    /** Whether the gain is significantly below {@code maxGain}: the interval's upper end is under it. */
    public boolean below(double maxGain) {
        return high < maxGain;
    }

    /** E.g. {@code +12.3% [+4.1%, +20.9%]}. */
    public String describe() {
        return String.format(Locale.ROOT, "%+.1f%% [%+.1f%%, %+.1f%%]", 100 * gain, 100 * low, 100 * high);
    }

    private static double[] logs(List<Double> xs) {
        double[] out = new double[xs.size()];
        for (int i = 0; i < out.length; i++) {
            double x = xs.get(i);
            if (!(x > 0)) {
                throw new IllegalArgumentException("window throughput must be positive, got " + x);
            }
            out[i] = Math.log(x);
        }
        return out;
    }

    private static double meanOf(List<Double> xs) {
        double s = 0;
        for (double x : xs) {
            s += x;
        }
        return s / xs.size();
    }

    private static double mean(double[] xs) {
        double s = 0;
        for (double x : xs) {
            s += x;
        }
        return s / xs.length;
    }

    private static double variance(double[] xs) {
        double m = mean(xs);
        double s = 0;
        for (double x : xs) {
            s += (x - m) * (x - m);
        }
        return s / (xs.length - 1);
    }
}
