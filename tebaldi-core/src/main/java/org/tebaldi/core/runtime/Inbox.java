package org.tebaldi.core.runtime;

/** The receiving end a transport delivers into: a runtime's local mailboxes. */
@FunctionalInterface
public interface Inbox {
    /** Enqueues a message for the local actor {@code to}; unknown addresses are dropped with a warning. */
    void deliver(NodeId from, NodeId to, Object msg);
}
