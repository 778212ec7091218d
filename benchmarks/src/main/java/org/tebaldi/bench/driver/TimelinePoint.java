package org.tebaldi.bench.driver;

/**
 * One bucket of the throughput timeline (docs/experiments.md, "summary.json", {@code timeline}).
 *
 * @param tMs        end of the bucket, ms since the start of the run (first bucket: 100)
 * @param throughput commits in the bucket as a rate, txn/s
 */
public record TimelinePoint(long tMs, double throughput) {
}
