package org.tebaldi.core.cc;

/**
 * Receives blocking events caused by data contention (dissertation §5.3.2): transaction {@code waiter} of type
 * {@code waiterType} waited for {@code blocker} of type {@code blockerType} from {@code beginMicros} to
 * {@code endMicros}. Parts report every lock wait, step wait, promise wait and commit-dependency wait here;
 * when profiling is off, {@link CcServices#blocking()} is null and parts skip the call, so the hot path pays
 * nothing.
 */
public interface BlockingSink {
    void blocked(long waiter, int waiterType, long blocker, int blockerType, long beginMicros, long endMicros);
}
