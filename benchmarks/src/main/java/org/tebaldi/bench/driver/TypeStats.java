package org.tebaldi.bench.driver;

import org.HdrHistogram.Histogram;

/**
 * Measured-window statistics of one transaction type (or of all types).
 *
 * @param committed      transactions committed in the window
 * @param aborted        aborted attempts (retryable aborts, each retried) in the window
 * @param errors         attempts that failed for good (non-retryable aborts, errors in the transaction body)
 * @param latencyMicros  commit latency including retries (first attempt start → commit), µs
 */
public record TypeStats(long committed, long aborted, long errors, Histogram latencyMicros) {
    /** Committed transactions per second over a window of {@code windowMicros}. */
    public double throughput(long windowMicros) {
        return committed * 1e6 / windowMicros;
    }

    /** Aborted attempts / all attempts (committed + aborted + errors); 0 when there were no attempts. */
    public double abortRate() {
        long attempts = committed + aborted + errors;
        return attempts == 0 ? 0 : (double) aborted / attempts;
    }

    /** Latency percentile in ms (e.g. 99.0), or null when nothing committed. */
    public Double percentileMs(double percentile) {
        return latencyMicros.getTotalCount() == 0 ? null : latencyMicros.getValueAtPercentile(percentile) / 1000.0;
    }
}
