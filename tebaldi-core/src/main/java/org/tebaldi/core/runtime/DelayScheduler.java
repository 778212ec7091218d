package org.tebaldi.core.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs short tasks at deadlines on one thread that sleeps (parks) until the earliest deadline: actor timers
 * without burning CPU while waiting (emulated network delays, all equal, wait on a {@link DelayLine} instead).
 * Tasks must be tiny (they only enqueue into mailboxes). A task never runs before its deadline; how late it runs
 * is the wake-up latency of {@code LockSupport.parkNanos}; the thread lowers its timer slack as the actor pool's workers do.
 */
public final class DelayScheduler implements AutoCloseable {
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
    private final Condition changed = lock.newCondition();
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private final Thread thread;
    private long seq;
    private volatile boolean closed;

    public DelayScheduler(String name) {
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Runs {@code task} on the scheduler thread once {@code delayNanos} ns have passed.
     *
     * @return a handle; cancelling prevents the run if it has not started
     */
    public Cancellable schedule(long delayNanos, Runnable task) {
        Entry e;
        lock.lock();
        try {
            e = new Entry(System.nanoTime() + delayNanos, seq++, task);
            queue.add(e);
            if (queue.peek() == e) {
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
        return e;
    }

    private void loop() {
        ActorPool.preciseTimers();
        List<Entry> due = new ArrayList<>();
        while (!closed) {
            lock.lock();
            try {
                while (!closed) {
                    Entry head = queue.peek();
                    if (head == null) {
                        changed.await();
                        continue;
                    }
                    long wait = head.deadline - System.nanoTime();
                    if (wait <= 0) {
                        break;
                    }
                    changed.awaitNanos(wait);
                }
                long now = System.nanoTime();
                while (!queue.isEmpty() && queue.peek().deadline <= now) {
                    due.add(queue.poll());
                }
            } catch (InterruptedException ie) {
                return;
            } finally {
                lock.unlock();
            }
            for (Entry e : due) {
                Runnable task = e.task;
                if (task != null) {
                    try {
                        task.run();
                    } catch (RuntimeException ex) {
                        LOG.error("delayed task failed", ex);
                    }
                }
            }
            due.clear();
        }
    }

    /** Id of the scheduler thread (for CPU-time accounting in tests and benchmarks). */
    public long threadId() {
        return thread.getId();
    }

    /** Stops the thread; pending tasks are dropped. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
