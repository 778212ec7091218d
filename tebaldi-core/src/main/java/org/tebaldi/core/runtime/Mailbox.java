package org.tebaldi.core.runtime;

import java.util.concurrent.locks.ReentrantLock;

/**
 * An actor's mailbox in the embedded runtime (docs/performance.md): a FIFO ring of (sender, message) pairs that
 * grows when full, so enqueueing allocates nothing per message (a linked queue allocates a node and an envelope per
 * message). Many threads put; one thread at a time (the one running the actor) takes, a batch at a time. Thread-safe.
 */
final class Mailbox {
    private final ReentrantLock lock = new ReentrantLock();
    private NodeId[] froms = new NodeId[16];
    private Object[] msgs = new Object[16];
    private int head;
    /** Written under the lock; read without it by {@link #isEmpty}. */
    private volatile int size;

    /** Appends a message. */
    void put(NodeId from, Object msg) {
        lock.lock();
        try {
            if (size == msgs.length) {
                grow();
            }
            int i = (head + size) & (msgs.length - 1);
            froms[i] = from;
            msgs[i] = msg;
            size++;
        } finally {
            lock.unlock();
        }
    }

    private void grow() {
        int n = msgs.length;
        NodeId[] f = new NodeId[n * 2];
        Object[] m = new Object[n * 2];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (n - 1);
            f[k] = froms[i];
            m[k] = msgs[i];
        }
        froms = f;
        msgs = m;
        head = 0;
    }

    /**
     * Moves up to {@code max} messages, oldest first, into {@code from} and {@code msg} (each at least {@code max}
     * long) and returns how many.
     */
    int take(NodeId[] from, Object[] msg, int max) {
        lock.lock();
        try {
            int n = Math.min(max, size);
            int mask = msgs.length - 1;
            for (int k = 0; k < n; k++) {
                from[k] = froms[head];
                msg[k] = msgs[head];
                froms[head] = null;
                msgs[head] = null;
                head = (head + 1) & mask;
            }
            size -= n;
            return n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether no message waits. A volatile read: a put that completed before the caller's last volatile write is
     * seen (the runtime's wake-up protocol relies on that), a put under way may not be.
     */
    boolean isEmpty() {
        return size == 0;
    }
}
