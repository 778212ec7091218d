package org.tebaldi.autoconf.tuning;

import org.tebaldi.autoconf.reconfig.SwapResult;

/**
 * One reconfiguration as the tuning daemon saw it, for timelines: when it was requested and when it completed
 * (ns on the daemon's {@link TuningClock}: {@link System#nanoTime()}, or virtual in simulation), the tree swapped to,
 * and the protocol's report.
 */
public record SwapEvent(long startNanos, long endNanos, String tree, SwapResult result) {
}
