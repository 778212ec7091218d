package org.tebaldi.server.net;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one Netty transport, beside the per-class message counts of
 * {@link org.tebaldi.core.runtime.MessageStats}: frames and bytes written, flushes (one per event-loop turn that
 * had something to send, so {@code frames / flushes} is the batching factor), messages dropped (queue bound hit,
 * peer down, or not encodable), connections made, and connections rejected for breaking the protocol.
 */
public final class TransportStats {
    final LongAdder frames = new LongAdder();
    final LongAdder bytes = new LongAdder();
    final LongAdder flushes = new LongAdder();
    final LongAdder dropped = new LongAdder();
    final LongAdder connects = new LongAdder();
    final LongAdder received = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder errors = new LongAdder();

    /** Message frames written to sockets. */
    public long frames() {
        return frames.sum();
    }

    /** Bytes written to sockets. */
    public long bytes() {
        return bytes.sum();
    }

    /** Flushes (event-loop turns that wrote). */
    public long flushes() {
        return flushes.sum();
    }

    /** Messages dropped: per-peer queue full, peer down, or encoding failed. */
    public long dropped() {
        return dropped.sum();
    }

    /** Outgoing connections established (first connects and reconnects). */
    public long connects() {
        return connects.sum();
    }

    /** Message frames received and delivered. */
    public long received() {
        return received.sum();
    }

    /**
     * Connections closed for breaking the wire protocol: bad or missing handshake (not a member of the cluster),
     * frame too long, undecodable, or of an unknown kind.
     */
    public long rejected() {
        return rejected.sum();
    }

    /** Unexpected exceptions on a connection (neither I/O failures nor protocol breaches): should stay 0. */
    public long errors() {
        return errors.sum();
    }

    @Override
    public String toString() {
        return "frames=" + frames() + " bytes=" + bytes() + " flushes=" + flushes() + " dropped=" + dropped()
                + " connects=" + connects() + " received=" + received() + " rejected=" + rejected()
                + " errors=" + errors();
    }
}
