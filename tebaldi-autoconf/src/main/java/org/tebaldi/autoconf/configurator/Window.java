package org.tebaldi.autoconf.configurator;

/**
 * One measurement window of a tree: its mean throughput and how long throughput took to settle before it.
 *
 * @param tree            {@code "incumbent"} or {@code "candidate"} (for progress output)
 * @param txnPerSec       mean throughput over the window's samples, txn/s
 * @param samples         samples in the window
 * @param settleSamples   samples discarded before the window while throughput settled (0 when nothing was swapped)
 * @param settleTimedOut  whether settle detection gave up at its maximum rather than seeing throughput flat
 */
public record Window(String tree, double txnPerSec, int samples, int settleSamples, boolean settleTimedOut) {
}
