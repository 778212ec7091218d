package org.tebaldi.server.ds;

import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.server.node.NodeFeature;

/**
 * A data server's {@link NodeFeature}, with the data server's named points (docs/architecture.md, "Nodes and
 * features"): a transaction created, before its vote, before and after its commit, after its abort, dropped, a
 * coordinator failed, an epoch about to be prepared, a recovery round began; and the loading of initial rows. Every
 * point defaults to doing nothing (or passing on at once); data-server thread only, unless said otherwise.
 */
interface DsFeature extends NodeFeature {
    /** Transaction {@code t} was created here (its first request arrived). */
    default void txnCreated(DsTxnImpl t) {
    }

    /**
     * Every CC passed validation of {@code t} here: passes the epoch to vote with on to {@code next} (at once, or
     * after e.g. its precommit log was written; {@code epoch} is the previous feature's).
     *
     * @param writers the number of data servers {@code t} wrote at
     */
    default void beforeVote(DsTxnImpl t, int writers, long epoch, LongConsumer next) {
        next.accept(epoch);
    }

    /** A commit with global epoch {@code epoch} arrived, before any CC's commit phase. */
    default void beforeCommit(long epoch) {
    }

    /** {@code t} committed here with global epoch {@code epoch}, its versions committed. */
    default void afterCommit(DsTxnImpl t, long epoch) {
    }

    /** {@code t} aborted here (its versions removed). */
    default void afterAbort(DsTxnImpl t) {
    }

    /** {@code t}'s state was dropped without an outcome (a reconfiguration found it left over). */
    default void dropped(DsTxnImpl t) {
    }

    /**
     * Coordinator {@code tc} failed and is marked dead; its transactions here abort unless a feature's predicate
     * claims them (their fate is that feature's).
     */
    default LongPredicate coordinatorFailed(int tc) {
        return id -> false;
    }

    /** The answer to commit epoch {@code epoch}'s prepare waits until this calls {@code ready} (at once by default). */
    default void beforeEpochPrepared(long epoch, Runnable ready) {
        ready.run();
    }

    /** A recovery round began: the in-memory state goes. */
    default void recoveryBegan() {
    }

    /** Whether this feature holds the server back from serving (recovering from its log). */
    default boolean recovering() {
        return false;
    }

    /** Whether this server restarted from a store that held data. */
    default boolean restarted() {
        return false;
    }

    /** An initial row is loaded (loading thread, before the node starts, or the node's thread). */
    default void load(Key key, Row row) {
    }

    /** The initial rows loaded so far go to the store (before the node's start point). */
    default void flushLoads() {
    }

    /** Blocks until the initial rows loaded so far are written (loading thread, before the node starts). */
    default void awaitLoaded() throws InterruptedException {
    }
}
