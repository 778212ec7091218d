package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Counts every violation reported and keeps at most {@code maxStoredPerType} of each type, building the
 * message only for the kept ones (a broken run may produce millions of aborted reads).
 */
final class ViolationCollector {
    private final int maxStoredPerType;
    private final List<Violation> stored = new ArrayList<>();
    private final long[] counts = new long[ViolationType.values().length];
    private final int[] storedCounts = new int[counts.length];

    ViolationCollector(int maxStoredPerType) {
        this.maxStoredPerType = maxStoredPerType;
    }

    /** Counts one violation of {@code type}; keeps {@code violation.get()} if under the limit for the type. */
    void report(ViolationType type, Supplier<Violation> violation) {
        counts[type.ordinal()]++;
        if (storedCounts[type.ordinal()] < maxStoredPerType) {
            storedCounts[type.ordinal()]++;
            stored.add(violation.get());
        }
    }

    /** Shorthand for an {@link ViolationType#INCONSISTENT_RECORD} about the given transactions. */
    void record(Supplier<String> message, long... txns) {
        report(ViolationType.INCONSISTENT_RECORD, () -> new Violation(ViolationType.INCONSISTENT_RECORD,
                message.get(), boxed(txns), List.of()));
    }

    List<Violation> stored() {
        return stored;
    }

    long[] counts() {
        return counts;
    }

    static List<Long> boxed(long... ids) {
        List<Long> l = new ArrayList<>(ids.length);
        for (long id : ids) {
            l.add(id);
        }
        return l;
    }
}
