package org.tebaldi.core.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The emulated network of the local transport (docs/architecture.md, "Runtime"; docs/performance.md): every message
 * waits the same one-way delay, so deadlines arrive in the order messages are posted and the line is a FIFO ring,
 * not a priority queue. One thread sleeps (parks) until the head's deadline, then takes every message that is due
 * in one round and hands them to the {@link Inbox} together, so a busy network costs one wake-up per round, not one
 * per message, and an actor that receives several messages in a round is scheduled once. Posting allocates
 * nothing (the ring grows when full) and wakes the thread only when the line was empty.
 *
 * <p>A message is never delivered before its deadline; how late it arrives is the thread's wake-up latency. On
 * Linux the thread lowers its own timer slack to 1 µs ({@code /proc/<tid>/timerslack_ns}; the default 50 µs slack
 * would stretch a 50 µs delay to ~125 µs). Messages from a node to itself are not delayed (the caller delivers
 * them directly). Thread-safe.
 */
public final class DelayLine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DelayLine.class);
    private static final int INITIAL = 1024;

    private final Inbox inbox;
    private final long delayNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Thread thread;
    private long[] deadlines = new long[INITIAL];
    private NodeId[] froms = new NodeId[INITIAL];
    private NodeId[] tos = new NodeId[INITIAL];
    private Object[] msgs = new Object[INITIAL];
    /** Index of the oldest message and number of messages in the ring (guarded by {@link #lock}). */
    private int head;
    private int size;
    private volatile boolean closed;
    /** Delivery rounds so far and messages delivered in them (read by tests and docs/performance.md's numbers). */
    private volatile long rounds;
    private volatile long delivered;

    /**
     * @param inbox      where messages go when their delay has passed
     * @param delayNanos the one-way delay, ns (&gt; 0)
     * @param name       the delivering thread's name
     * @throws IllegalArgumentException if the delay is not positive
     */
    public DelayLine(Inbox inbox, long delayNanos, String name) {
        if (delayNanos <= 0) {
            throw new IllegalArgumentException("a delay line needs a positive delay, got " + delayNanos + " ns");
        }
        this.inbox = inbox;
        this.delayNanos = delayNanos;
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Sends {@code msg} from {@code from} to {@code to}; it is handed to the inbox once the delay has passed. */
    public void post(NodeId from, NodeId to, Object msg) {
        long deadline = System.nanoTime() + delayNanos;
        boolean wasEmpty;
        lock.lock();
        try {
            if (size == deadlines.length) {
                grow();
            }
            int i = (head + size) & (deadlines.length - 1);
            deadlines[i] = deadline;
            froms[i] = from;
            tos[i] = to;
            msgs[i] = msg;
            wasEmpty = size++ == 0;
        } finally {
            lock.unlock();
        }
        if (wasEmpty) {
            LockSupport.unpark(thread);
        }
    }

    private void grow() {
        int n = deadlines.length;
        long[] d = new long[n * 2];
        NodeId[] f = new NodeId[n * 2];
        NodeId[] t = new NodeId[n * 2];
        Object[] m = new Object[n * 2];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (n - 1);
            d[k] = deadlines[i];
            f[k] = froms[i];
            t[k] = tos[i];
            m[k] = msgs[i];
        }
        deadlines = d;
        froms = f;
        tos = t;
        msgs = m;
        head = 0;
    }

    private void loop() {
        preciseTimers();
        NodeId[] bf = new NodeId[INITIAL];
        NodeId[] bt = new NodeId[INITIAL];
        Object[] bm = new Object[INITIAL];
        while (!closed) {
            int n = 0;
            long wait = 0;
            lock.lock();
            try {
                if (size == 0) {
                    wait = -1;
                } else {
                    long now = System.nanoTime();
                    wait = deadlines[head] - now;
                    if (wait <= 0) {
                        wait = 0;
                        if (bf.length < size) {
                            bf = new NodeId[deadlines.length];
                            bt = new NodeId[deadlines.length];
                            bm = new Object[deadlines.length];
                        }
                        int mask = deadlines.length - 1;
                        while (size > 0 && deadlines[head] - now <= 0) {
                            bf[n] = froms[head];
                            bt[n] = tos[head];
                            bm[n] = msgs[head];
                            froms[head] = null;
                            tos[head] = null;
                            msgs[head] = null;
                            head = (head + 1) & mask;
                            size--;
                            n++;
                        }
                    }
                }
            } finally {
                lock.unlock();
            }
            if (wait < 0) {
                LockSupport.park(this);
            } else if (wait > 0) {
                LockSupport.parkNanos(this, wait);
            } else {
                deliver(bf, bt, bm, n);
            }
        }
    }

    private void deliver(NodeId[] bf, NodeId[] bt, Object[] bm, int n) {
        try {
            inbox.deliverAll(bf, bt, bm, n);
        } catch (RuntimeException e) {
            LOG.error("delivering {} message(s) failed", n, e);
        }
        java.util.Arrays.fill(bf, 0, n, null);
        java.util.Arrays.fill(bt, 0, n, null);
        java.util.Arrays.fill(bm, 0, n, null);
        rounds++;
        delivered += n;
    }

    /** Delivery rounds so far (each one wake-up of the line's thread that found messages due). */
    public long rounds() {
        return rounds;
    }

    /** Messages delivered so far. */
    public long delivered() {
        return delivered;
    }

    /** Id of the delivering thread (for CPU-time accounting in tests and benchmarks). */
    public long threadId() {
        return thread.getId();
    }

    /** Asks Linux for 1 µs timer slack on the calling thread; a no-op where that is not possible. */
    static void preciseTimers() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            Path slack = Path.of("/proc", self.getFileName().toString(), "timerslack_ns");
            Files.writeString(slack, "1000");
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot lower the timer slack of {}: {}", Thread.currentThread().getName(), e.toString());
        }
    }

    /** Stops the thread; messages still waiting are dropped. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
