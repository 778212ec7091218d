package org.tebaldi.autoconf.stats;

import java.util.Locale;
import org.apache.commons.math3.stat.inference.ChiSquareTest;

/**
 * Whether the transaction-type mix changed between two periods: the tuning daemon's workload signature
 * (docs/autoconf.md, "The daemon"). In a closed loop each client draws its next type from the workload's mix when
 * its previous transaction ended, whatever the engine's speed, so the committed counts per type are a sample of the
 * mix — a collector's pauses or growing data slow every type but leave the shares where they were.
 *
 * <p>The test has two parts, both required:
 * <ul>
 *   <li><b>size</b>: the Hellinger distance between the two periods' type shares, {@code H = sqrt(1 - Σ sqrt(p_i
 *       q_i))} (0 for equal mixes, 1 for disjoint ones), at least {@code threshold}. Hellinger weighs a type that
 *       appears or vanishes: a new type with share {@code s} alone gives {@code H >= sqrt(s / 2)}, so the default
 *       0.1 counts any new type with 2% of the transactions or more (TPC-C's hot_item has 4.1%, {@code H = 0.144}
 *       from the standard mix), while two types trading shares must move about 14 points each ({@code 0.43/0.57} against
 *       {@code 0.57/0.43} gives 0.099);</li>
 *   <li><b>significance</b>: a chi-square test of homogeneity of the two count vectors (Apache Commons Math
 *       {@link ChiSquareTest#chiSquareTestDataSetsComparison}) rejects equal mixes at {@code alpha}, so that a short
 *       period's sampling noise never passes as a change (a type of share {@code s} sampled {@code n} times varies
 *       by about {@code sqrt(s (1 - s) / n)}).</li>
 * </ul>
 *
 * @param distance the Hellinger distance between the shares, in [0, 1]
 * @param pValue   the chi-square test's p-value (1 when there is only one type with commits)
 * @param changed  whether both parts hold
 */
public record MixChange(double distance, double pValue, boolean changed) {
    /**
     * Compares the committed counts per type of a reference period and a recent one (the same type order).
     *
     * @param reference commits per type in the reference period (non-negative)
     * @param recent    commits per type in the recent period (non-negative)
     * @param threshold smallest Hellinger distance that counts as a change, e.g. 0.1
     * @param alpha     significance level of the homogeneity test, e.g. 0.001
     * @throws IllegalArgumentException for arrays of different lengths or a negative count
     */
    public static MixChange of(long[] reference, long[] recent, double threshold, double alpha) {
        if (reference.length != recent.length) {
            throw new IllegalArgumentException("count vectors differ in length: " + reference.length + " and "
                    + recent.length);
        }
        long a = 0;
        long b = 0;
        int both = 0;
        for (int i = 0; i < reference.length; i++) {
            if (reference[i] < 0 || recent[i] < 0) {
                throw new IllegalArgumentException("negative commit count at type " + i);
            }
            a += reference[i];
            b += recent[i];
            both += reference[i] + recent[i] > 0 ? 1 : 0;
        }
        if (a == 0 || b == 0) {
            return new MixChange(0, 1, false); // nothing committed on one side: no mix to compare
        }
        double bc = 0;
        long[] x = new long[both];
        long[] y = new long[both];
        for (int i = 0, j = 0; i < reference.length; i++) {
            bc += Math.sqrt((double) reference[i] / a * recent[i] / b);
            if (reference[i] + recent[i] > 0) {
                x[j] = reference[i];
                y[j++] = recent[i];
            }
        }
        double h = Math.sqrt(Math.max(0, 1 - bc));
        double p = both < 2 ? 1 : new ChiSquareTest().chiSquareTestDataSetsComparison(x, y);
        return new MixChange(h, p, h >= threshold && p < alpha);
    }

    /** E.g. {@code mix distance 0.144 (p 1.2e-40)}. */
    public String describe() {
        return String.format(Locale.ROOT, "mix distance %.3f (p %.2g)", distance, pValue);
    }
}
