package org.tebaldi.bench.driver;

import java.util.Map;
import java.util.SplittableRandom;

/**
 * Back-off after aborted attempts (experiment section {@code retry}): exponential with jitter — the n-th consecutive
 * abort waits a uniform draw from {@code [d/2, d]} with {@code d = min(max, base * 2^(n-1))} — except after an abort
 * by a mechanism with a fixed delay ({@code retry.byMechanism}, {@link AbortCause}), which waits exactly that. Used by
 * one logical client at a time.
 */
final class Backoff {
    private final long baseMicros;
    private final long maxMicros;
    private final Map<String, Long> fixedMicros;
    private final SplittableRandom random;

    /**
     * @param baseMicros  first delay, µs
     * @param maxMicros   cap, µs
     * @param fixedMicros fixed delay, µs, after an abort by each listed mechanism
     */
    Backoff(long baseMicros, long maxMicros, Map<String, Long> fixedMicros, long seed) {
        this.baseMicros = baseMicros;
        this.maxMicros = maxMicros;
        this.fixedMicros = fixedMicros;
        this.random = new SplittableRandom(seed);
    }

    Backoff(long baseMicros, long maxMicros, long seed) {
        this(baseMicros, maxMicros, Map.of(), seed);
    }

    /** Client {@code i}'s back-off under {@code cfg}. */
    static Backoff of(DriverConfig cfg, int i) {
        return new Backoff(cfg.backoffMicros(), cfg.maxBackoffMicros(), cfg.fixedBackoffMicros(), ~cfg.clientSeed(i));
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

    /**
     * The delay before retrying after the {@code aborts}-th consecutive abort (1-based) whose reason was
     * {@code message}, µs: the fixed delay of the mechanism that aborted it, if it has one, else
     * {@link #delayMicros(int)}.
     */
    long delayMicros(int aborts, String message) {
        if (!fixedMicros.isEmpty()) {
            String m = AbortCause.mechanismOf(message);
            Long fixed = m == null ? null : fixedMicros.get(m);
            if (fixed != null) {
                return fixed;
            }
        }
        return delayMicros(aborts);
    }
}
