package org.tebaldi.bench.ycsb;

import java.util.SplittableRandom;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;

/**
 * Zipf-distributed integers in {@code [0, n)}: item {@code i} is drawn with probability exactly proportional to
 * {@code 1 / (i + 1)^theta}, for any {@code 0 <= theta <= 2} (Sundial's read-skewed YCSB uses 1.7, §6.4), by
 * rejection-inversion (Hörmann and Derflinger, "Rejection-inversion to generate variates from monotone discrete
 * distributions", TOMACS 1996) as Apache Commons RNG's {@link RejectionInversionZipfSampler} implements it. Item 0
 * is the hottest (no scrambling); {@code theta = 0} is uniform.
 *
 * <p>Before issue 34 this class used Gray et al.'s method (SIGMOD 1994, as YCSB's own generator), which only covers
 * {@code theta < 1} and over-draws item 2 by about 15% at 0.9; figures measured before then used that law.
 *
 * <p>Construction and {@link #next} are O(1). Immutable and thread-safe; the caller brings the random source, so a
 * seeded {@link SplittableRandom} gives the same sequence on every run.
 */
public final class ZipfianGenerator {
    /** Largest skew accepted (the papers' range: YCSB 0.5-0.99, Sundial up to 1.7). */
    public static final double MAX_THETA = 2.0;

    private final int n;
    private final double theta;
    /** Holds the precomputed constants; each draw binds them to the caller's random source. */
    private final SharedStateDiscreteSampler prototype;

    /**
     * @param n     number of items, 1 to {@link Integer#MAX_VALUE}
     * @param theta skew, {@code 0 <= theta <= 2} (YCSB's default: 0.99)
     * @throws IllegalArgumentException outside those ranges
     */
    public ZipfianGenerator(long n, double theta) {
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Zipf needs 1 to " + Integer.MAX_VALUE + " items, got " + n);
        }
        if (!(theta >= 0 && theta <= MAX_THETA)) {
            throw new IllegalArgumentException("Zipf theta must be in [0, " + MAX_THETA + "], got " + theta);
        }
        this.n = (int) n;
        this.theta = theta;
        UniformRandomProvider unused = () -> {
            throw new IllegalStateException("the prototype sampler is never drawn from");
        };
        this.prototype = RejectionInversionZipfSampler.of(unused, this.n, theta);
    }

    /** Number of items. */
    public long items() {
        return n;
    }

    /** The skew. */
    public double theta() {
        return theta;
    }

    /** The next item, in {@code [0, n)}; consumes one or more longs of {@code random}. */
    public long next(SplittableRandom random) {
        return prototype.withUniformRandomProvider(random::nextLong).sample() - 1L;
    }
}
