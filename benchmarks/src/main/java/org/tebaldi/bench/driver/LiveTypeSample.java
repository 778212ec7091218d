package org.tebaldi.bench.driver;

import org.HdrHistogram.Histogram;

/**
 * A live reading of one transaction type ({@link LiveRun#typeSample()}).
 *
 * @param commits       transactions committed since the start of the run (warm-up included)
 * @param aborts        aborted attempts (retryable aborts) since the start of the run
 * @param latencyMicros commit latencies including retries (first attempt start → commit), µs, recorded since the
 *                      previous reading
 */
public record LiveTypeSample(long commits, long aborts, Histogram latencyMicros) {
}
