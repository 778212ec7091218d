package org.tebaldi.core.runtime;

import java.util.Random;

/**
 * What an {@link Actor} may do: send messages, set timers, read the clock. All methods must be called from the
 * actor's own thread (inside {@code onStart}, {@code onMessage} or a timer).
 */
public interface NodeContext {
    NodeId self();

    /** Sends a message; delivery is asynchronous, FIFO per (sender, receiver) link. */
    void send(NodeId to, Object msg);

    /**
     * Runs {@code task} on this actor's thread after {@code delayMicros} µs (virtual µs in simulation).
     *
     * @return a handle to cancel the timer
     */
    Cancellable schedule(long delayMicros, Runnable task);

    /** Monotonic time in µs (virtual under simulation). */
    long nowMicros();

    /** A random source private to this node (seeded, hence reproducible, under simulation). */
    Random random();
}
