package org.tebaldi.core.runtime;

/**
 * A single-threaded node (docs/architecture.md, "Runtime"): it owns its state and handles one message or timer at a time, so its
 * code needs no locks. It must never block its thread: work that has to wait is parked as a continuation and
 * resumed by a later message or timer. The same actor runs under the embedded, process and simulated runtimes.
 */
public interface Actor {
    /** Called once, before any message, on the actor's own thread. */
    void onStart(NodeContext ctx);

    /**
     * Handles one message.
     *
     * @param from the sender's address
     * @param msg  the message object (runtime-specific transport may have decoded it)
     */
    void onMessage(NodeId from, Object msg);
}
