package org.tebaldi.core.profile;

/**
 * A batch of blocking events a node sends to the profiler monitor (dissertation §5.3.2): six longs per event —
 * waiter transaction id, waiter type id, blocker transaction id, blocker type id (-1 if unknown), begin µs, end µs
 * (on the cluster's common clock).
 */
public record BlockingBatch(long[] events) {
    /** Longs per event. */
    public static final int STRIDE = 6;

    /** Number of events. */
    public int size() {
        return events.length / STRIDE;
    }
}
