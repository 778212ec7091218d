package org.tebaldi.bench.driver;

import java.util.SplittableRandom;

/**
 * Exponential back-off with jitter after aborted attempts: the n-th consecutive abort waits a uniform draw from
 * {@code [d/2, d]} with {@code d = min(max, base * 2^(n-1))}. Used by one logical client at a time.
 */
final class Backoff {
    private final long baseMicros;
    private final long maxMicros;
    private final SplittableRandom random;

    /** @param baseMicros first delay, µs; @param maxMicros cap, µs */
    Backoff(long baseMicros, long maxMicros, long seed) {
        this.baseMicros = baseMicros;
        this.maxMicros = maxMicros;
        this.random = new SplittableRandom(seed);
    }

    /** The delay before retrying after the {@code aborts}-th consecutive abort (1-based), µs. */
    long delayMicros(int aborts) {
        int shift = Math.min(Math.max(aborts - 1, 0), 40);
        long d = baseMicros > (maxMicros >> shift) ? maxMicros : Math.min(maxMicros, baseMicros << shift);
        if (d <= 1) {
            return d;
        }
        long half = d / 2;
        return half + random.nextLong(d - half + 1);
    }
}
