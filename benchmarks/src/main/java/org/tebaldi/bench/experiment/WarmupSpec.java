package org.tebaldi.bench.experiment;

import org.tebaldi.core.config.Durations;

/**
 * The {@code warmup:} key (docs/experiments.md, "Writing an experiment"; docs/performance.md, "A steady measured window"): either a
 * fixed warm-up ({@code warmup: 5s}: {@code minMicros == maxMicros}) or one that lasts at least {@code min}, then
 * until throughput has settled, at most {@code max} ({@code warmup: {min: 5s, max: 60s}}: {@code maxMicros >
 * minMicros}). The driver decides when it settled ({@code org.tebaldi.bench.driver.SettleWatch}); the measured
 * {@code duration} starts when warm-up ends.
 *
 * @param minMicros shortest warm-up, µs, at least 0 (the whole warm-up when fixed)
 * @param maxMicros longest warm-up, µs, at least {@code minMicros}
 */
public record WarmupSpec(long minMicros, long maxMicros) {
    /** @throws IllegalArgumentException for a negative minimum or a maximum below it */
    public WarmupSpec {
        if (minMicros < 0 || maxMicros < minMicros) {
            throw new IllegalArgumentException("bad warm-up: min " + minMicros + " us, max " + maxMicros + " us");
        }
    }

    /** A fixed warm-up of {@code micros} µs. */
    public static WarmupSpec fixed(long micros) {
        return new WarmupSpec(micros, micros);
    }

    /** Whether warm-up ends when throughput settles (rather than after a fixed time). */
    public boolean settles() {
        return maxMicros > minMicros;
    }

    /** For people: {@code 5s}, or {@code 5s..60s until throughput settles}. */
    public String describe() {
        return settles() ? Durations.format(minMicros) + ".." + Durations.format(maxMicros)
                + " until throughput settles" : Durations.format(minMicros);
    }
}
