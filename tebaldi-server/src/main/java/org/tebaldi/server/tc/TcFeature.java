package org.tebaldi.server.tc;

import java.util.function.Consumer;
import org.tebaldi.server.msg.TxnEnded;
import org.tebaldi.server.node.NodeFeature;

/**
 * A coordinator's {@link NodeFeature}, with the coordinator's named points (docs/architecture.md, "Nodes and
 * features"): after a commit is decided, before the client hears of a commit, after a transaction ended, and the
 * periodic sweep. Every point defaults to doing nothing (or passing on at once); coordinator thread only.
 */
interface TcFeature extends NodeFeature {
    /**
     * {@code t}'s commit was decided (every participant voted yes, the TC parts validated it): passes on to
     * {@code commit} (at once by default; epoch-based commit holds it until its epoch commits).
     */
    default void afterDecide(TcTxnImpl t, Runnable commit) {
        commit.run();
    }

    /**
     * {@code t} committed: its client's answer {@code ended} passes on to {@code next} (at once by default;
     * durability may hold it until the commit is durable, or send it itself).
     */
    default void answerCommit(TcTxnImpl t, TxnEnded ended, Consumer<TxnEnded> next) {
        next.accept(ended);
    }

    /** A transaction ended here (it left the live set). */
    default void txnEnded() {
    }

    /** The periodic sweep at {@code nowMicros} (only with a reply or transaction timeout, {@link TcTermination}). */
    default void sweep(long nowMicros) {
    }

    /** Whether a recovery round holds this coordinator back. */
    default boolean recovering() {
        return false;
    }

    /** Whether commits here are logged (durability on). */
    default boolean durable() {
        return false;
    }
}
