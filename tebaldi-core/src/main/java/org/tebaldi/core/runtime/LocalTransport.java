package org.tebaldi.core.runtime;

/**
 * In-JVM transport (docs/architecture.md, "Runtime"): hands message objects to the local {@link Inbox}, after an
 * optional emulated one-way delay that waits on a {@link DelayLine}, never spun. The delay is the same for every
 * message, so delivery stays FIFO per link.
 */
public final class LocalTransport implements Transport {
    private final Inbox inbox;
    private final DelayLine line;
    private final MessageStats stats;

    /**
     * @param delayMicros emulated one-way delay in µs (0: deliver immediately)
     * @throws IllegalArgumentException for a negative delay
     */
    public LocalTransport(Inbox inbox, long delayMicros, MessageStats stats) {
        if (delayMicros < 0) {
            throw new IllegalArgumentException("network delay must be >= 0 µs, got " + delayMicros);
        }
        this.inbox = inbox;
        this.line = delayMicros == 0 ? null : new DelayLine(inbox, delayMicros * 1000, "tebaldi-network");
        this.stats = stats;
    }

    @Override
    public void send(NodeId from, NodeId to, Object msg) {
        stats.record(msg);
        if (line == null || from.equals(to)) {
            inbox.deliver(from, to, msg);
        } else {
            line.post(from, to, msg);
        }
    }

    /** The delay line, or null without a delay. */
    public DelayLine line() {
        return line;
    }

    /** Stops the delay line's thread (messages still waiting are dropped). */
    @Override
    public void close() {
        if (line != null) {
            line.close();
        }
    }
}
