package org.tebaldi.core.runtime;

/**
 * In-JVM transport (docs/architecture.md, "Runtime"): hands message objects to the local {@link Inbox}, after an optional emulated
 * one-way delay in µs that is scheduled on a {@link DelayScheduler}, never spun. With a constant delay, delivery
 * stays FIFO per link because the scheduler orders equal-delay messages by submission.
 */
public final class LocalTransport implements Transport {
    private final Inbox inbox;
    private final long delayNanos;
    private final DelayScheduler scheduler;
    private final MessageStats stats;

    /**
     * @param delayMicros emulated one-way delay in µs (0: deliver immediately)
     * @param scheduler   where delayed deliveries wait; may be null when {@code delayMicros == 0}
     * @throws IllegalArgumentException for a negative delay, or a positive delay without scheduler
     */
    public LocalTransport(Inbox inbox, long delayMicros, DelayScheduler scheduler, MessageStats stats) {
        if (delayMicros < 0) {
            throw new IllegalArgumentException("network delay must be >= 0 µs, got " + delayMicros);
        }
        if (delayMicros > 0 && scheduler == null) {
            throw new IllegalArgumentException("a delayed local transport needs a scheduler");
        }
        this.inbox = inbox;
        this.delayNanos = delayMicros * 1000;
        this.scheduler = scheduler;
        this.stats = stats;
    }

    @Override
    public void send(NodeId from, NodeId to, Object msg) {
        stats.record(msg);
        if (delayNanos == 0 || from.equals(to)) {
            inbox.deliver(from, to, msg);
        } else {
            scheduler.schedule(delayNanos, () -> inbox.deliver(from, to, msg));
        }
    }

    @Override
    public void close() {
        // the scheduler belongs to the runtime
    }
}
