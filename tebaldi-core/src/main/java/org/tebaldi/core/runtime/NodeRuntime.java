package org.tebaldi.core.runtime;

/**
 * Hosts actors and connects them through a transport: {@link EmbeddedRuntime} (threads, real time) or
 * {@link SimulatedRuntime} (one thread, virtual time).
 */
public interface NodeRuntime extends AutoCloseable {
    /**
     * Registers an actor under an address and calls its {@code onStart}.
     *
     * @throws IllegalStateException if the address is taken
     */
    void spawn(NodeId id, Actor actor);

    /**
     * Delivers {@code msg} to local node {@code to} from outside any node (e.g. an API call from a user thread);
     * the sender is {@code to} itself. Thread-safe in the embedded runtime; in simulation, call it from the
     * simulation thread.
     */
    void inject(NodeId to, Object msg);

    /** Message counters of everything sent through this runtime. */
    MessageStats stats();

    /** Stops all actors and threads. */
    @Override
    void close();
}
