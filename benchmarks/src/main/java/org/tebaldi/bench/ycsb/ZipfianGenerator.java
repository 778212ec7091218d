package org.tebaldi.bench.ycsb;

import java.util.SplittableRandom;

/**
 * Zipf-distributed integers in {@code [0, n)}: item {@code i} is drawn with probability proportional to
 * {@code 1 / (i + 1)^theta}, by the method of Gray et al., "Quickly generating billion-record synthetic databases"
 * (SIGMOD 1994), as YCSB's {@code ZipfianGenerator} and DBx1000 use it: exact for items 0 and 1, an approximation
 * of the law beyond (about 15% too many draws of item 2 at theta 0.9). Item 0 is the hottest (no scrambling).
 * {@code theta = 0} is uniform. Construction costs O(n) (the zeta constant); {@link #next} is O(1). Immutable and
 * thread-safe; the caller brings the random source.
 */
public final class ZipfianGenerator {
    private final long n;
    private final double theta;
    private final double zetan;
    private final double alpha;
    private final double eta;
    private final double half;

    /**
     * @param n     number of items, at least 1
     * @param theta skew, {@code 0 <= theta < 1} (YCSB's default: 0.99)
     * @throws IllegalArgumentException outside those ranges
     */
    public ZipfianGenerator(long n, double theta) {
        if (n < 1) {
            throw new IllegalArgumentException("Zipf needs at least 1 item, got " + n);
        }
        if (!(theta >= 0 && theta < 1)) {
            throw new IllegalArgumentException("Zipf theta must be in [0, 1), got " + theta);
        }
        this.n = n;
        this.theta = theta;
        double z = 0;
        for (long i = 1; i <= n; i++) {
            z += 1.0 / Math.pow(i, theta);
        }
        this.zetan = z;
        double zeta2 = 1 + Math.pow(0.5, theta);
        this.alpha = 1.0 / (1.0 - theta);
        this.eta = n <= 2 ? 1 : (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
        this.half = Math.pow(0.5, theta);
    }

    /** Number of items. */
    public long items() {
        return n;
    }

    /** The skew. */
    public double theta() {
        return theta;
    }

    /** The next item, in {@code [0, n)}. */
    public long next(SplittableRandom random) {
        double u = random.nextDouble();
        double uz = u * zetan;
        if (uz < 1) {
            return 0;
        }
        if (n > 1 && uz < 1 + half) {
            return 1;
        }
        long x = (long) (n * Math.pow(eta * u - eta + 1, alpha));
        return Math.min(Math.max(x, 0), n - 1);
    }
}
