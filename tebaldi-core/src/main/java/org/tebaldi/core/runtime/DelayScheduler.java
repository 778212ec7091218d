package org.tebaldi.core.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Actor timers of the embedded runtime (docs/architecture.md, "Runtime"): short tasks waiting for deadlines in a
 * priority queue, with no thread of their own — the {@link ActorPool}'s workers run what is due between actor runs,
 * and an idle worker sleeps until the earliest deadline. Tasks must be tiny (they only enqueue into mailboxes). A
 * task never runs before its deadline. A cancelled task is dropped at once (its entry, holding nothing, leaves the
 * queue at its deadline). Thread-safe.
 */
public final class DelayScheduler implements DueSource {
    private static final Logger LOG = LoggerFactory.getLogger(DelayScheduler.class);

    private static final class Entry implements Cancellable, Comparable<Entry> {
        final long deadline;
        final long seq;
        /** The task; null once cancelled, so a cancelled entry waiting for its deadline retains nothing. */
        volatile Runnable task;

        Entry(long deadline, long seq, Runnable task) {
            this.deadline = deadline;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public void cancel() {
            task = null;
        }

        @Override
        public int compareTo(Entry o) {
            int c = Long.compare(deadline, o.deadline);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
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
     * @return a handle; cancelling prevents the run if it has not started
     */
    public Cancellable schedule(long delayNanos, Runnable task) {
        Entry e;
        boolean head;
        lock.lock();
        try {
            e = new Entry(System.nanoTime() + delayNanos, seq++, task);
            queue.add(e);
            head = queue.peek() == e;
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
            while (!queue.isEmpty() && queue.peek().deadline - now <= 0) {
                due.add(queue.poll());
            }
            Entry h = queue.peek();
            headDeadline = h == null ? Long.MAX_VALUE : h.deadline;
            // run under the lock: the list is shared, and tasks only enqueue into mailboxes
            int n = 0;
            for (Entry e : due) {
                Runnable task = e.task;
                if (task != null) {
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
}
