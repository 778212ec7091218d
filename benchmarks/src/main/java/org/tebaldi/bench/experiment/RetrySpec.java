package org.tebaldi.bench.experiment;

/**
 * The {@code retry:} section: after the n-th aborted attempt of a transaction the client waits
 * {@code min(maxBackoff, backoff * 2^(n-1))} with jitter (a uniform draw from the upper half) before retrying.
 *
 * @param backoffMicros    first back-off, µs (default 1 ms)
 * @param maxBackoffMicros cap, µs, at least {@code backoffMicros} (default 50 ms)
 */
public record RetrySpec(long backoffMicros, long maxBackoffMicros) {
}
