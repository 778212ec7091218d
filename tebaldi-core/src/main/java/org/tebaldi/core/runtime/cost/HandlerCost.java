package org.tebaldi.core.runtime.cost;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;

/**
 * The calibrated CPU cost of one handler key (docs/simulation.md, "Cost model"): {@code baseMicros +
 * perUnitMicros × units (+ coldMicros if the node was idle)} µs — units as {@link CostUnits} counts them; a cold
 * handler is the first its node runs after being idle (caches and the thread hand-over cost more than for a handler
 * that follows another of the same node).
 *
 * @param baseMicros    fixed part, µs (≥ 0)
 * @param perUnitMicros part per work unit, µs (≥ 0)
 * @param coldMicros    extra part of a cold handler, µs (≥ 0)
 * @param samples       handlers the fit was made from (0 for a derived default)
 */
public record HandlerCost(double baseMicros, double perUnitMicros, double coldMicros, long samples) {
    public HandlerCost {
        if (!(baseMicros >= 0) || !(perUnitMicros >= 0) || !(coldMicros >= 0) || samples < 0) {
            throw new IllegalArgumentException("handler cost must be non-negative: " + baseMicros + " + "
                    + perUnitMicros + "/unit + " + coldMicros + " cold");
        }
    }

    /**
     * Handlers a key needs in a calibration's measured window for its fit to be kept: a mean over fewer moves by
     * hundreds of µs with one garbage-collection pause inside a timed handler (a lock wait's time-out fitted at 467 µs
     * from 1 sample, against 5.4 µs from 620); a key with fewer is left out and charged as one the table lacks
     * ({@link CostTable#cost(String)}).
     */
    public static final int MIN_SAMPLES = 100;

    /** A cost without a cold-start term. */
    public HandlerCost(double baseMicros, double perUnitMicros, long samples) {
        this(baseMicros, perUnitMicros, 0, samples);
    }

    /** The cost of a handler with {@code units} work units, cold or warm, ns. */
    public long nanos(int units, boolean cold) {
        return Math.round((baseMicros + perUnitMicros * units + (cold ? coldMicros : 0)) * 1000);
    }

    /**
     * Least-squares fit of {@code time = base + perUnit × units + cold × coldStart} to {@code s}. Of the models
     * with every coefficient non-negative — with or without the base, with both terms, units only or cold only, or
     * the mean alone — the one with the smallest squared error wins; a regressor that never varies is left out.
     */
    public static HandlerCost fit(HandlerProfile.Sums s) {
        if (s.count == 0) {
            return new HandlerCost(0, 0, 0, 0);
        }
        double n = s.count;
        HandlerCost best = new HandlerCost(s.nanos / n / 1000, 0, 0, s.count);
        double bestSse = sse(s, best);
        List<boolean[]> models = new ArrayList<>();
        for (boolean intercept : new boolean[] {true, false}) {
            models.add(new boolean[] {intercept, true, true});
            models.add(new boolean[] {intercept, true, false});
            models.add(new boolean[] {intercept, false, true});
        }
        for (boolean[] m : models) {
            HandlerCost c = solve(s, m[0], m[1], m[2]);
            if (c != null) {
                double e = sse(s, c);
                if (e < bestSse * (1 - 1e-9)) {
                    best = c;
                    bestSse = e;
                }
            }
        }
        return best;
    }

    /** The normal equations over (1?, units?, cold?), in ns; null if singular or a coefficient is negative. */
    private static HandlerCost solve(HandlerProfile.Sums s, boolean intercept, boolean units, boolean cold) {
        double[][] xx = {
            {s.count, s.units, s.colds},
            {s.units, s.unitsSquared, s.unitsColds},
            {s.colds, s.unitsColds, s.coldsSquared}};
        double[] xy = {s.nanos, s.unitsNanos, s.coldsNanos};
        boolean[] use = {intercept, units, cold};
        int k = 0;
        int[] idx = new int[3];
        for (int i = 0; i < 3; i++) {
            if (use[i]) {
                idx[k++] = i;
            }
        }
        if (k == 0 || s.count < 2) {
            return null;
        }
        RealMatrix a = new Array2DRowRealMatrix(k, k);
        RealVector b = new ArrayRealVector(k);
        for (int r = 0; r < k; r++) {
            b.setEntry(r, xy[idx[r]]);
            for (int c = 0; c < k; c++) {
                a.setEntry(r, c, xx[idx[r]][idx[c]]);
            }
        }
        LUDecomposition lu = new LUDecomposition(a, 1e-12);
        if (!lu.getSolver().isNonSingular()) {
            return null;
        }
        RealVector beta = lu.getSolver().solve(b);
        double[] coef = new double[3];
        for (int r = 0; r < k; r++) {
            coef[idx[r]] = beta.getEntry(r) / 1000;
        }
        if (coef[0] < 0 || coef[1] < 0 || coef[2] < 0) {
            return null;
        }
        return new HandlerCost(coef[0], coef[1], coef[2], s.count);
    }

    /** Σ (t − model)², ns², from the sums. */
    private static double sse(HandlerProfile.Sums s, HandlerCost c) {
        double b0 = c.baseMicros * 1000;
        double b1 = c.perUnitMicros * 1000;
        double b2 = c.coldMicros * 1000;
        // Σ (t - b0 - b1 u - b2 l)^2 expanded over the sums
        return s.nanosSquared + b0 * b0 * s.count + b1 * b1 * s.unitsSquared + b2 * b2 * s.coldsSquared
                - 2 * b0 * s.nanos - 2 * b1 * s.unitsNanos - 2 * b2 * s.coldsNanos
                + 2 * b0 * b1 * s.units + 2 * b0 * b2 * s.colds + 2 * b1 * b2 * s.unitsColds;
    }
}
