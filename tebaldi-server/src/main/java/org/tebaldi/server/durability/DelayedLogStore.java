package org.tebaldi.server.durability;

import java.util.ArrayDeque;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A {@link LogStore} whose synced writes complete no earlier than a fixed latency after they were issued — the
 * injectable durable-write latency of COCO's Fig 11 (Lu et al. VLDB 2021, §7.4: 1 µs – 2 ms, modelling SSDs, disks
 * or a remote replica's acknowledgement). The records reach the wrapped store at once; only the completion callbacks
 * wait, through the data server's timer (never a sleep), so it works the same under the simulated runtime.
 * Callbacks still run in the order the writes were issued: a write's callback runs once the wrapped store completed
 * it, its deadline (issue time + latency for a synced write, none for an unsynced one) passed, and every earlier
 * write's callback ran. Each synced write waits on its own: concurrent writes overlap, as on a device with a deep
 * queue. Owner thread only (the data server's): {@code write} and the wrapped store's callbacks both run there.
 */
public final class DelayedLogStore extends ForwardingLogStore {
    /** Schedules a task on the data server's thread after a delay, µs. */
    @FunctionalInterface
    public interface Timer {
        void schedule(long delayMicros, Runnable task);
    }

    private static final class Pending {
        final long deadline;
        final Runnable done;
        boolean stored;

        Pending(long deadline, Runnable done) {
            this.deadline = deadline;
            this.done = done;
        }
    }

    private final long latencyMicros;
    private final LongSupplier nowMicros;
    private final Timer timer;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** The deadline a timer is armed for (0: none). */
    private long armed;

    /**
     * @param latencyMicros at least 1 µs
     * @param nowMicros     the data server's clock, µs
     * @throws IllegalArgumentException if the latency is not positive
     */
    public DelayedLogStore(LogStore inner, long latencyMicros, LongSupplier nowMicros, Timer timer) {
        super(inner);
        if (latencyMicros <= 0) {
            throw new IllegalArgumentException("injected write latency must be positive, got " + latencyMicros
                    + " µs");
        }
        this.latencyMicros = latencyMicros;
        this.nowMicros = nowMicros;
        this.timer = timer;
    }

    @Override
    public void write(List<LogRecord> records, boolean sync, Runnable done) {
        if (done == null) {
            inner.write(records, sync, null);
            return;
        }
        Pending p = new Pending(sync ? nowMicros.getAsLong() + latencyMicros : 0, done);
        pending.add(p);
        inner.write(records, sync, () -> {
            p.stored = true;
            drain();
        });
    }

    private void drain() {
        while (!pending.isEmpty() && pending.peek().stored) {
            Pending head = pending.peek();
            long now = nowMicros.getAsLong();
            if (head.deadline > now) {
                if (armed != head.deadline) {
                    armed = head.deadline;
                    timer.schedule(head.deadline - now, () -> {
                        armed = 0;
                        drain();
                    });
                }
                return;
            }
            pending.poll();
            if (head.done != null) {
                head.done.run();
            }
        }
    }
}
