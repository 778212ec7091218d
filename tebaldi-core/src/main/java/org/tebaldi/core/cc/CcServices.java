package org.tebaldi.core.cc;

import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeId;

/**
 * What a node offers the CC parts it hosts (common to TC and DS; docs/architecture.md, "The CC contract"). Services
 * only some mechanisms use are capabilities the services object may implement besides, e.g. {@link HotRecords}.
 */
public interface CcServices {
    /** The database definition (types, procedures, catalog) the cluster runs. */
    org.tebaldi.core.db.Database database();

    /** This node's address. */
    NodeId self();

    /** Clock, µs (virtual in simulation). */
    long nowMicros();

    /** Runs {@code task} on this node after {@code delayMicros} µs. */
    Cancellable schedule(long delayMicros, Runnable task);

    /**
     * A fresh request id, unique on this node for its lifetime: every CC part, and every part a rebuild of the CC
     * module makes (partial restart, online update), draws from the one sequence, so a reply to a dropped part's
     * request can never be taken for the reply to a request of the part that replaced it under the same CC node id
     * (replies are routed by CC node id), and a service can recognise a request asked again ({@link
     * org.tebaldi.core.service.TsClient}).
     */
    long newRequestId();

    /** Sends a mechanism-specific message to the part of the same CC node at {@code to}. */
    void send(NodeId to, int ccNode, Object payload);

    /**
     * How long a transaction may wait for another to finish or progress where no mechanism-specific timeout
     * applies (commit-dependency waits, SSI's wait for a prepared writer, TSO's commit in batch order), µs. Waits of
     * different mechanisms can form cycles a single mechanism cannot see; the timeout aborts the waiter (the
     * dissertation handles deadlocks by timing out transactions, §4.4.1).
     */
    long waitTimeoutMicros();

    /** The profiler's sink, or null when profiling is off (then report nothing). */
    BlockingSink blocking();

    /** Runs {@code task} on this node right after the current event (never re-entrantly). */
    void later(Runnable task);

    /**
     * Starts a bounded wait: {@code onTimeout} runs on this node after {@code timeoutMicros} µs unless the waiter
     * ends the wait first with {@link TimedWait#complete()} (which cancels the timer). Every bounded wait of a
     * mechanism goes through this, so none leaves a timer behind or answers its continuation twice.
     */
    default TimedWait awaitOrTimeout(long timeoutMicros, Runnable onTimeout) {
        return TimedWait.start(this, timeoutMicros, onTimeout);
    }
}
