package org.tebaldi.core.runtime;

/** The receiving end a transport delivers into: a runtime's local mailboxes. */
@FunctionalInterface
public interface Inbox {
    /** Enqueues a message for the local actor {@code to}; unknown addresses are dropped with a warning. */
    void deliver(NodeId from, NodeId to, Object msg);

    /**
     * Enqueues {@code n} messages ({@code froms[i]} to {@code tos[i]}: {@code msgs[i]}, in order), as if by
     * {@link #deliver} one after the other; a runtime may wake each receiving actor once for all of them.
     */
    default void deliverAll(NodeId[] froms, NodeId[] tos, Object[] msgs, int n) {
        for (int i = 0; i < n; i++) {
            deliver(froms[i], tos[i], msgs[i]);
        }
    }
}
