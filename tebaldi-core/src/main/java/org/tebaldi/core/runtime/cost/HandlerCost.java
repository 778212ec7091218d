package org.tebaldi.core.runtime.cost;

/**
 * The calibrated CPU cost of one handler key (docs/simulation.md, "Cost model"): {@code baseMicros +
 * perUnitMicros × units} µs, units as {@link CostUnits} counts them.
 *
 * @param baseMicros    fixed part, µs (≥ 0)
 * @param perUnitMicros part per work unit, µs (≥ 0)
 * @param samples       handlers the fit was made from (0 for a derived default)
 */
public record HandlerCost(double baseMicros, double perUnitMicros, long samples) {
    public HandlerCost {
        if (!(baseMicros >= 0) || !(perUnitMicros >= 0) || samples < 0) {
            throw new IllegalArgumentException("handler cost must be non-negative: " + baseMicros + " + "
                    + perUnitMicros + "/unit");
        }
    }

    /** The cost of a handler with {@code units} work units, ns. */
    public long nanos(int units) {
        return Math.round((baseMicros + perUnitMicros * units) * 1000);
    }

    /**
     * Least-squares fit of {@code time = base + perUnit × units} to {@code s}: a negative slope (or units that never
     * vary) falls back to the mean; a negative intercept to a line through the origin.
     */
    public static HandlerCost fit(HandlerProfile.Sums s) {
        if (s.count == 0) {
            return new HandlerCost(0, 0, 0);
        }
        double n = s.count;
        double mean = s.nanos / n / 1000;
        double den = n * s.unitsSquared - s.units * s.units;
        if (den <= 1e-9 * n * n) {
            return new HandlerCost(mean, 0, s.count);
        }
        double slope = (n * s.unitsNanos - s.units * s.nanos) / den / 1000;
        if (slope <= 0) {
            return new HandlerCost(mean, 0, s.count);
        }
        double base = (s.nanos / 1000 - slope * s.units) / n;
        if (base < 0) {
            return new HandlerCost(0, s.unitsNanos / s.unitsSquared / 1000, s.count);
        }
        return new HandlerCost(base, slope, s.count);
    }
}
