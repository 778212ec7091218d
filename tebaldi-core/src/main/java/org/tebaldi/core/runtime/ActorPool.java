package org.tebaldi.core.runtime;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker threads of the embedded runtime (docs/architecture.md, "Runtime"; docs/performance.md): a few threads
 * (one per core by default) run ready actors from one queue, and deliver the emulated network's due messages
 * ({@link DelayLine}) between two actor runs. A worker with nothing to do spins briefly, then parks — untimed, or,
 * for one worker at a time (the timekeeper), until the line's next deadline. So under load no thread sleeps and
 * wakes per message, and the network needs no thread of its own; an idle worker is woken only when work arrives
 * that the busy ones would otherwise leave waiting. Thread-safe.
 */
public final class ActorPool implements Executor, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ActorPool.class);
    /** Checks of the queues an idle worker makes (with a spin-wait hint between them) before it parks. */
    private static final int SPINS = 64;

    private final ConcurrentLinkedQueue<Runnable> ready = new ConcurrentLinkedQueue<>();
    private final Worker[] workers;
    private final AtomicInteger idle = new AtomicInteger();
    private final AtomicBoolean timekeeper = new AtomicBoolean();
    private final DelayLine line;
    private final Inbox inbox;
    private volatile boolean closed;

    /** One worker thread; {@code parked} is set while it is (about to be) parked and not yet claimed by a waker. */
    private final class Worker implements Runnable {
        final AtomicBoolean parked = new AtomicBoolean();
        final DelayLine.Batch batch = new DelayLine.Batch();
        Thread thread;

        @Override
        public void run() {
            preciseTimers();
            while (!closed) {
                Runnable r = ready.poll();
                if (r != null) {
                    runSafely(r);
                    deliverDue(batch);
                    continue;
                }
                if (deliverDue(batch) > 0 || spinForWork()) {
                    continue;
                }
                idleUntilWork();
            }
        }

        private boolean spinForWork() {
            for (int i = 0; i < SPINS; i++) {
                Thread.onSpinWait();
                if (!ready.isEmpty() || (line != null && line.untilDue() <= 0)) {
                    return true;
                }
            }
            return false;
        }

        private void idleUntilWork() {
            parked.set(true);
            idle.incrementAndGet();
            try {
                // Re-check after announcing: a producer that enqueued before seeing us idle is seen here.
                if (!ready.isEmpty() || closed) {
                    return;
                }
                long until = line == null ? Long.MAX_VALUE : line.untilDue();
                if (until <= 0) {
                    return;
                }
                if (until != Long.MAX_VALUE && timekeeper.compareAndSet(false, true)) {
                    try {
                        LockSupport.parkNanos(this, until);
                    } finally {
                        timekeeper.set(false);
                    }
                } else {
                    LockSupport.park(this);
                }
            } finally {
                parked.set(false);
                idle.decrementAndGet();
            }
        }
    }

    /**
     * Starts the workers.
     *
     * @param threads worker threads (&gt; 0)
     * @param line    the emulated network the workers deliver from, or null
     * @param inbox   where the line's due messages go (the runtime's mailboxes)
     * @param name    thread name prefix
     * @throws IllegalArgumentException if {@code threads} is not positive
     */
    public ActorPool(int threads, DelayLine line, Inbox inbox, String name) {
        if (threads <= 0) {
            throw new IllegalArgumentException("an actor pool needs at least one thread, got " + threads);
        }
        this.line = line;
        this.inbox = inbox;
        workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
            Worker w = new Worker();
            w.thread = new Thread(w, name + "-" + i);
            w.thread.setDaemon(true);
            workers[i] = w;
        }
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    /** Queues a ready actor run; wakes an idle worker if there is one. */
    @Override
    public void execute(Runnable r) {
        ready.offer(r);
        if (idle.get() > 0) {
            wakeOne();
        }
    }

    /**
     * The line went from empty to holding a message: if every worker that could watch its deadline is parked
     * untimed, one is woken to become the timekeeper (a busy worker looks at the line after its current run).
     */
    public void lineStarted() {
        if (idle.get() > 0 && !timekeeper.get()) {
            wakeOne();
        }
    }

    private void wakeOne() {
        for (Worker w : workers) {
            if (w.parked.get() && w.parked.compareAndSet(true, false)) {
                LockSupport.unpark(w.thread);
                return;
            }
        }
    }

    private int deliverDue(DelayLine.Batch batch) {
        return line == null ? 0 : line.deliverDue(inbox, batch);
    }

    /**
     * Asks Linux for 1 µs timer slack on the calling thread (the default 50 µs slack would stretch a 50 µs emulated
     * delay to ~125 µs); a no-op where that is not possible.
     */
    static void preciseTimers() {
        try {
            java.nio.file.Path self = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/thread-self"));
            java.nio.file.Files.writeString(java.nio.file.Path.of("/proc", self.getFileName().toString(),
                    "timerslack_ns"), "1000");
        } catch (java.io.IOException | RuntimeException e) {
            LOG.debug("cannot lower the timer slack of {}: {}", Thread.currentThread().getName(), e.toString());
        }
    }

    private static void runSafely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException | Error e) {
            LOG.error("uncaught in an actor run", e);
        }
    }

    /** The workers' thread ids (for CPU-time accounting in tests and benchmarks). */
    public long[] threadIds() {
        long[] ids = new long[workers.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = workers[i].thread.getId();
        }
        return ids;
    }

    /** Number of worker threads. */
    public int threads() {
        return workers.length;
    }

    /** Stops the workers (queued runs are dropped) and waits up to 5 s for them. */
    @Override
    public void close() {
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
        for (Worker w : workers) {
            try {
                w.thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
