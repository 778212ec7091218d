package org.tebaldi.core.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs short tasks at deadlines on one thread that sleeps (parks) until the earliest deadline: emulated
 * network delays and actor timers without burning CPU while waiting (issue "local transport ... without
 * spinning"). Tasks must be tiny (they only enqueue into mailboxes). A task never runs before its deadline;
 * how late it runs is the wake-up latency of {@code LockSupport.parkNanos}. On Linux the thread lowers its own
 * timer slack to 1 µs ({@code /proc/<tid>/timerslack_ns}; the default 50 µs slack would stretch a 50 µs emulated
 * delay to ~125 µs): on this project's 2-core machine a 50 µs delay is then delivered after 77 µs at the median.
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

    /** Asks Linux for 1 µs timer slack on the calling thread; a no-op where that is not possible. */
    private static void preciseTimers() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            Path slack = Path.of("/proc", self.getFileName().toString(), "timerslack_ns");
            Files.writeString(slack, "1000");
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot lower the timer slack of {}: {}", Thread.currentThread().getName(), e.toString());
        }
    }

    private void loop() {
        preciseTimers();
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
