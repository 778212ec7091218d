package org.tebaldi.bench.driver;

import org.HdrHistogram.Histogram;

/**
 * A live reading of one transaction type ({@link LiveRun#typeSample()}).
 *
 * @param commits       transactions committed since the live view's first reading (warm-up included)
 * @param aborts        aborted attempts (retryable aborts) since then
 * @param latencyMicros commit latencies including retries (first attempt start → commit), µs, recorded since the
 *                      previous reading
 */
public record LiveTypeSample(long commits, long aborts, Histogram latencyMicros) {
}
