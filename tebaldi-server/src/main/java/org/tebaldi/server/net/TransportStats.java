package org.tebaldi.server.net;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one Netty transport, beside the per-class message counts of
 * {@link org.tebaldi.core.runtime.MessageStats}: frames and bytes written, flushes (one per event-loop turn that
 * had something to send, so {@code frames / flushes} is the batching factor), messages dropped (queue bound hit,
 * peer down, or not encodable) and connections made.
 */
public final class TransportStats {
    final LongAdder frames = new LongAdder();
    final LongAdder bytes = new LongAdder();
    final LongAdder flushes = new LongAdder();
    final LongAdder dropped = new LongAdder();
    final LongAdder connects = new LongAdder();
    final LongAdder received = new LongAdder();

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

    @Override
    public String toString() {
        return "frames=" + frames() + " bytes=" + bytes() + " flushes=" + flushes() + " dropped=" + dropped()
                + " connects=" + connects() + " received=" + received();
    }
}
