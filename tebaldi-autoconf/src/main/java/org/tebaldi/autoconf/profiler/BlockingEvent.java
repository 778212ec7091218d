package org.tebaldi.autoconf.profiler;

/**
 * One blocking event caused by data contention (dissertation §5.3.2): transaction {@code waiter} (of type
 * {@code waiterType}) waited for {@code blocker} (of type {@code blockerType}) from {@code begin} to {@code end},
 * µs on the cluster's common clock.
 */
public record BlockingEvent(long waiter, int waiterType, long blocker, int blockerType, long begin, long end) {
    public BlockingEvent {
        if (end < begin) {
            throw new IllegalArgumentException("blocking event ends before it begins: " + begin + " > " + end);
        }
    }

    /** Duration, µs. */
    public long length() {
        return end - begin;
    }
}
