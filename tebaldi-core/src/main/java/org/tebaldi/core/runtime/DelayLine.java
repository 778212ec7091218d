package org.tebaldi.core.runtime;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The emulated network of the local transport (docs/architecture.md, "Runtime"; docs/performance.md): every message
 * waits the same one-way delay, so deadlines arrive in the order messages are posted and the line is a FIFO ring,
 * not a priority queue. The line has no thread of its own: the {@link ActorPool}'s workers deliver what is due
 * between two actor runs, and an idle worker sleeps until the head's deadline — under load the network costs no
 * wake-up at all, and an actor that receives several messages in one round is scheduled once. Posting allocates
 * nothing (the ring grows when full).
 *
 * <p>A message is never delivered before its deadline; how late it arrives depends on how soon a worker looks (at
 * most one actor run under load, the wake-up latency when idle). Messages from a node to itself are not delayed
 * (the caller delivers them directly). Thread-safe.
 */
public final class DelayLine implements DueSource {
    private static final int INITIAL = 1024;

    private final long delayNanos;
    private final Inbox inbox;
    /** The messages of the round being delivered (used only under {@link #lock}). */
    private final Batch scratch = new Batch();
    private final ReentrantLock lock = new ReentrantLock();
    private long[] deadlines = new long[INITIAL];
    private NodeId[] froms = new NodeId[INITIAL];
    private NodeId[] tos = new NodeId[INITIAL];
    private Object[] msgs = new Object[INITIAL];
    /** Index of the oldest message and number of messages in the ring (guarded by {@link #lock}). */
    private int head;
    private int size;
    /** The head's deadline, or {@link Long#MAX_VALUE} when empty: read without the lock by idle checks. */
    private volatile long headDeadline = Long.MAX_VALUE;
    /** Delivery rounds that found messages due, and messages taken in them (written under {@link #lock}). */
    private volatile long rounds;
    private volatile long delivered;
    /** Sum over delivered messages of how long after its deadline each was handed over, ns (under {@link #lock}). */
    private volatile long lateNanos;

    /**
     * @param delayNanos the one-way delay, ns (&gt; 0)
     * @param inbox      where due messages go
     * @throws IllegalArgumentException if the delay is not positive
     */
    public DelayLine(long delayNanos, Inbox inbox) {
        if (delayNanos <= 0) {
            throw new IllegalArgumentException("a delay line needs a positive delay, got " + delayNanos + " ns");
        }
        this.delayNanos = delayNanos;
        this.inbox = inbox;
    }

    /**
     * Sends {@code msg} from {@code from} to {@code to}, due after the delay.
     *
     * @return true if the line was empty (whoever delivers must now be told to look at the new deadline)
     */
    public boolean post(NodeId from, NodeId to, Object msg) {
        long deadline = System.nanoTime() + delayNanos;
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
            if (size++ == 0) {
                headDeadline = deadline;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
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

    /** Nanoseconds until the head message is due (≤ 0: due now), or {@link Long#MAX_VALUE} if the line is empty. */
    @Override
    public long untilDue() {
        return DueSource.until(headDeadline);
    }

    /**
     * Hands every message that is due to the inbox ({@link Inbox#deliverAll}, in posting order, under the line's
     * lock so that rounds never overtake each other), if another thread is not doing so already.
     *
     * @return the number delivered (0 if none was due or another thread holds the line)
     */
    @Override
    public int runDue() {
        if (untilDue() > 0 || !lock.tryLock()) {
            return 0;
        }
        int n = 0;
        try {
            long now = System.nanoTime();
            scratch.ensure(size);
            int mask = deadlines.length - 1;
            long late = 0;
            while (size > 0 && deadlines[head] - now <= 0) {
                late += now - deadlines[head];
                scratch.froms[n] = froms[head];
                scratch.tos[n] = tos[head];
                scratch.msgs[n] = msgs[head];
                froms[head] = null;
                tos[head] = null;
                msgs[head] = null;
                head = (head + 1) & mask;
                size--;
                n++;
            }
            headDeadline = size == 0 ? Long.MAX_VALUE : deadlines[head];
            if (n > 0) {
                rounds++;
                delivered += n;
                lateNanos += late;
                // still under the lock: a second deliverer must not overtake this round (FIFO per link)
                inbox.deliverAll(scratch.froms, scratch.tos, scratch.msgs, n);
            }
        } finally {
            scratch.clear(n);
            lock.unlock();
        }
        return n;
    }

    /** Delivery rounds that found messages due so far (approximate while workers run). */
    public long rounds() {
        return rounds;
    }

    /**
     * How late, in sum, the messages delivered so far were handed to their receivers after their deadline, ns: the
     * emulated network's real delay beyond the nominal one (a worker must notice the deadline; an idle one sleeps
     * past it). Calibration measures it for the simulated model of this machine (docs/simulation.md).
     */
    public long lateNanos() {
        return lateNanos;
    }

    /** Messages delivered so far (approximate while workers run). */
    public long delivered() {
        return delivered;
    }

    /** The reusable arrays of a delivery round. */
    private static final class Batch {
        NodeId[] froms = new NodeId[64];
        NodeId[] tos = new NodeId[64];
        Object[] msgs = new Object[64];

        void ensure(int n) {
            if (froms.length < n) {
                int c = Integer.highestOneBit(n) * 2;
                froms = new NodeId[c];
                tos = new NodeId[c];
                msgs = new Object[c];
            }
        }

        void clear(int n) {
            Arrays.fill(froms, 0, n, null);
            Arrays.fill(tos, 0, n, null);
            Arrays.fill(msgs, 0, n, null);
        }
    }
}
