package org.tebaldi.server.epoch;

import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A {@link DecisionLog} in memory, for simulated and embedded clusters: one per cluster, handed to every instance of
 * the epoch service, so it outlives an instance lost with {@code Cluster#failService} (as ZooKeeper outlives a
 * process). A record is durable as soon as it is handed over; the {@link DecisionLog.Recorded} completion is
 * delivered through {@code notify} (e.g. injected as a message to the service's address — an instance lost before it
 * arrives never sends the decision, which the next term then sends from the record).
 */
public final class MemoryDecisionLog implements DecisionLog {
    private final Consumer<Object> notify;
    private volatile SortedSet<Long> pending = Collections.emptySortedSet();

    /** @param notify delivers a completion message to the current service instance */
    public MemoryDecisionLog(Consumer<Object> notify) {
        this.notify = notify;
    }

    @Override
    public void recordCommit(long term, long epoch, SortedSet<Long> now) {
        pending = Collections.unmodifiableSortedSet(new TreeSet<>(now));
        notify.accept(new Recorded(term, epoch));
    }

    @Override
    public void forget(SortedSet<Long> now) {
        pending = Collections.unmodifiableSortedSet(new TreeSet<>(now));
    }

    @Override
    public SortedSet<Long> pending() {
        return pending;
    }
}
