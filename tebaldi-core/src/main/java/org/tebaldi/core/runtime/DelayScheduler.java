package org.tebaldi.core.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Actor timers of the embedded runtime (docs/architecture.md, "Runtime"): short tasks waiting for deadlines in a
 * binary min-heap (deadline, then order of scheduling), with no thread of their own — the {@link ActorPool}'s
 * workers run what is due between actor runs, and an idle worker sleeps until the earliest deadline. Tasks must be
 * tiny (they only enqueue into mailboxes). A task never runs before its deadline.
 *
 * <p>A cancelled task leaves the heap at once (each entry knows its slot, so removal is O(log n)). Most timers are
 * the timeouts of waits that end well before them (lock, step and commit waits), so the heap holds only the timers
 * that may still fire: kept until their deadline, as a {@code java.util.PriorityQueue} would, the cancelled ones
 * kept it deep, and comparing entries while sifting through them took 3.4-5.8% of the node threads' samples in the
 * default experiment's hour (docs/performance.md, "Long runs: an hour of the default tree"). Thread-safe.
 */
public final class DelayScheduler implements DueSource {
    private static final Logger LOG = LoggerFactory.getLogger(DelayScheduler.class);

    private final class Entry implements Cancellable {
        final long deadline;
        final long seq;
        /** The task; null once cancelled or taken to run. */
        volatile Runnable task;
        /** The entry's slot in {@link #heap}, or -1 once it left it (guarded by {@link #lock}). */
        int slot = -1;

        Entry(long deadline, long seq, Runnable task) {
            this.deadline = deadline;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public void cancel() {
            if (task == null) {
                return;
            }
            task = null;
            lock.lock();
            try {
                if (slot >= 0) {
                    removeAt(slot);
                    updateHead();
                }
            } finally {
                lock.unlock();
            }
        }

        boolean before(Entry o) {
            return deadline != o.deadline ? deadline - o.deadline < 0 : seq < o.seq;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    /** The pending entries as a binary min-heap in {@code heap[0..size)} (guarded by {@link #lock}). */
    private Entry[] heap = new Entry[64];
    private int size;
    private final List<Entry> due = new ArrayList<>();
    private volatile long headDeadline = Long.MAX_VALUE;
    private long seq;
    private Runnable earlier = () -> { };

    /** Who to tell when a new task's deadline is the earliest (the pool's timekeeper must wake sooner). */
    void onEarlierDeadline(Runnable r) {
        this.earlier = r;
    }

    /**
     * Runs {@code task} on a worker once {@code delayNanos} ns have passed.
     *
     * @return a handle; cancelling prevents the run if it has not started, and frees the entry at once
     */
    public Cancellable schedule(long delayNanos, Runnable task) {
        Entry e;
        boolean head;
        lock.lock();
        try {
            e = new Entry(System.nanoTime() + delayNanos, seq++, task);
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            place(e, size++);
            siftUp(e.slot);
            head = heap[0] == e;
            if (head) {
                headDeadline = e.deadline;
            }
        } finally {
            lock.unlock();
        }
        if (head) {
            earlier.run();
        }
        return e;
    }

    /** Timers waiting (not cancelled, not yet run). */
    public int pending() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long untilDue() {
        return DueSource.until(headDeadline);
    }

    @Override
    public int runDue() {
        if (untilDue() > 0 || !lock.tryLock()) {
            return 0;
        }
        try {
            long now = System.nanoTime();
            while (size > 0 && heap[0].deadline - now <= 0) {
                due.add(heap[0]);
                removeAt(0);
            }
            updateHead();
            // run under the lock: the list is shared, and tasks only enqueue into mailboxes
            int n = 0;
            for (int i = 0; i < due.size(); i++) {
                Entry e = due.get(i);
                Runnable task = e.task;
                if (task != null) {
                    e.task = null;
                    n++;
                    try {
                        task.run();
                    } catch (RuntimeException ex) {
                        LOG.error("timer task failed", ex);
                    }
                }
            }
            due.clear();
            return n;
        } finally {
            lock.unlock();
        }
    }

    private void updateHead() {
        headDeadline = size == 0 ? Long.MAX_VALUE : heap[0].deadline;
    }

    private void place(Entry e, int i) {
        heap[i] = e;
        e.slot = i;
    }

    /** Takes the entry at slot {@code i} out of the heap. */
    private void removeAt(int i) {
        Entry gone = heap[i];
        gone.slot = -1;
        size--;
        Entry last = heap[size];
        heap[size] = null;
        if (i == size) {
            return;
        }
        place(last, i);
        siftDown(i);
        if (heap[i] == last) {
            siftUp(i);
        }
    }

    private void siftUp(int i) {
        Entry e = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Entry p = heap[parent];
            if (!e.before(p)) {
                break;
            }
            place(p, i);
            i = parent;
        }
        place(e, i);
    }

    private void siftDown(int i) {
        Entry e = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            Entry c = heap[child];
            int right = child + 1;
            if (right < size && heap[right].before(c)) {
                child = right;
                c = heap[right];
            }
            if (!c.before(e)) {
                break;
            }
            place(c, i);
            i = child;
        }
        place(e, i);
    }
}
