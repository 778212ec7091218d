package org.tebaldi.autoconf.reconfig;

/**
 * How one reconfiguration went: the protocol, when it started (µs, cluster clock), how long clean-up, prepare and
 * the whole swap took (µs), and how many transactions clean-up force-aborted.
 */
public record SwapResult(String protocol, long epoch, long startMicros, long cleanupMicros, long prepareMicros,
                         long totalMicros, int forceAborted) {
}
