package org.tebaldi.bench.driver;

/**
 * What the closed-loop driver needs from an experiment.
 *
 * @param clients            logical clients, at least 1
 * @param warmupMicros       warm-up, µs (measured from the start of the run; excluded from measurement): the whole
 *                           warm-up, or with {@code warmupMaxMicros} above it the shortest one
 * @param warmupMaxMicros    the longest warm-up, µs: equal to {@code warmupMicros} for a fixed warm-up; above it,
 *                           warm-up lasts at least {@code warmupMicros}, then until throughput settled
 *                           ({@link SettleWatch}), at most this long
 * @param durationMicros     measured window, µs, positive (it starts when warm-up ends)
 * @param backoffMicros      first retry back-off, µs
 * @param maxBackoffMicros   back-off cap, µs
 * @param seed               experiment seed; client {@code i} gets {@link #clientSeed(int)}
 * @param drainTimeoutMillis how long to wait for in-flight transactions after the end, ms
 * @param fixedBackoffMicros fixed retry back-off, µs, after an abort by each listed mechanism
 *                           ({@code retry.byMechanism}, {@link AbortCause}); empty: the exponential back-off after
 *                           every abort
 */
public record DriverConfig(int clients, long warmupMicros, long warmupMaxMicros, long durationMicros,
                           long backoffMicros, long maxBackoffMicros, long seed, long drainTimeoutMillis,
                           java.util.Map<String, Long> fixedBackoffMicros) {
    /**
     * @throws IllegalArgumentException for clients &lt; 1, a non-positive duration, negative times or a longest
     *                                  warm-up below the shortest
     */
    public DriverConfig {
        fixedBackoffMicros = java.util.Map.copyOf(fixedBackoffMicros);
        if (clients < 1 || durationMicros <= 0 || warmupMicros < 0 || warmupMaxMicros < warmupMicros
                || backoffMicros < 0 || maxBackoffMicros < backoffMicros || drainTimeoutMillis < 0
                || fixedBackoffMicros.values().stream().anyMatch(v -> v < 0)) {
            throw new IllegalArgumentException("bad driver config " + this);
        }
    }

    /** The same back-off after every abort; warm-up from the shortest to the longest. */
    public DriverConfig(int clients, long warmupMicros, long warmupMaxMicros, long durationMicros,
                        long backoffMicros, long maxBackoffMicros, long seed, long drainTimeoutMillis) {
        this(clients, warmupMicros, warmupMaxMicros, durationMicros, backoffMicros, maxBackoffMicros, seed,
                drainTimeoutMillis, java.util.Map.of());
    }

    /** A fixed warm-up of {@code warmupMicros} µs and the same back-off after every abort. */
    public DriverConfig(int clients, long warmupMicros, long durationMicros, long backoffMicros,
                        long maxBackoffMicros, long seed, long drainTimeoutMillis) {
        this(clients, warmupMicros, warmupMicros, durationMicros, backoffMicros, maxBackoffMicros, seed,
                drainTimeoutMillis);
    }

    /** Whether warm-up ends when throughput settles (between the shortest and the longest warm-up). */
    public boolean settles() {
        return warmupMaxMicros > warmupMicros;
    }

    /** The random seed of logical client {@code i}: the experiment seed mixed with the index (SplitMix64). */
    public long clientSeed(int i) {
        long z = seed + (i + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
