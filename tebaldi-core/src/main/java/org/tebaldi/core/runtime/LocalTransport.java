package org.tebaldi.core.runtime;

/**
 * In-JVM transport (docs/architecture.md, "Runtime"): hands message objects to the local {@link Inbox}, after an
 * optional emulated one-way delay that waits on a {@link DelayLine}, never spun. The delay is the same for every
 * message, so delivery stays FIFO per link.
 */
public final class LocalTransport implements Transport {
    private final Inbox inbox;
    private final DelayLine line;
    private final Runnable lineStarted;
    private final MessageStats stats;

    /**
     * @param line        the emulated network (a delay for every message), or null to deliver at once
     * @param lineStarted told when a message went into an empty line (whoever delivers from it must look at the
     *                    new deadline); ignored without a line
     */
    public LocalTransport(Inbox inbox, DelayLine line, Runnable lineStarted, MessageStats stats) {
        this.inbox = inbox;
        this.line = line;
        this.lineStarted = lineStarted;
        this.stats = stats;
    }

    @Override
    public void send(NodeId from, NodeId to, Object msg) {
        stats.record(msg);
        if (line == null || from.equals(to)) {
            inbox.deliver(from, to, msg);
        } else if (line.post(from, to, msg)) {
            lineStarted.run();
        }
    }

    /** The delay line, or null without a delay. */
    public DelayLine line() {
        return line;
    }

    @Override
    public void close() {
        // the line belongs to the runtime
    }
}
