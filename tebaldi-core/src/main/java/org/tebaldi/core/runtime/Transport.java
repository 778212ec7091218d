package org.tebaldi.core.runtime;

/**
 * Transport SPI (docs/architecture.md, "Runtime"): moves a message from one node to another, FIFO per link. Implementations:
 * {@link LocalTransport} (in-JVM, optional emulated one-way delay) and the Netty transport of tebaldi-server.
 */
public interface Transport extends AutoCloseable {
    /** Hands a message to the transport; never blocks the caller's thread for the delivery. */
    void send(NodeId from, NodeId to, Object msg);

    /** Releases threads and connections. */
    @Override
    void close();
}
