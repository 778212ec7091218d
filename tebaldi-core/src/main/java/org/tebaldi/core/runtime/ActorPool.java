package org.tebaldi.core.runtime;

import java.util.List;
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
 * (one per core by default) run ready actors from one queue, and between two actor runs what became due: the
 * emulated network's messages ({@link DelayLine}) and actor timers ({@link DelayScheduler}). A worker with nothing
 * to do spins briefly, then parks — untimed, or, for one worker at a time (the timekeeper), until the earliest
 * deadline. So under load no thread sleeps and wakes per message, and neither the network nor the timers need a
 * thread of their own; an idle worker is woken only when work arrives
 * that the busy ones would otherwise leave waiting. Thread-safe.
 */
final class ActorPool implements Executor, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ActorPool.class);
    /** Checks of the queues an idle worker makes (with a spin-wait hint between them) before it parks. */
    private static final int SPINS = 64;

    private final ConcurrentLinkedQueue<Runnable> ready = new ConcurrentLinkedQueue<>();
    private final Worker[] workers;
    private final AtomicInteger idle = new AtomicInteger();
    private final AtomicBoolean timekeeper = new AtomicBoolean();
    private final DueSource[] sources;
    /** The worker parked until the earliest deadline, or null. */
    private volatile Worker keeper;
    private volatile boolean closed;
    /** Times a worker found nothing to run and began to spin (then perhaps park): the simulator's core wake-ups. */
    private final java.util.concurrent.atomic.LongAdder idleEpisodes = new java.util.concurrent.atomic.LongAdder();

    /** One worker thread; {@code parked} is set while it is (about to be) parked and not yet claimed by a waker. */
    private final class Worker implements Runnable {
        final AtomicBoolean parked = new AtomicBoolean();
        Thread thread;

        @Override
        public void run() {
            preciseTimers();
            while (!closed) {
                Runnable r = ready.poll();
                if (r != null) {
                    runSafely(r);
                    runDue();
                    continue;
                }
                if (runDue() > 0) {
                    continue;
                }
                idleEpisodes.increment();
                if (spinForWork()) {
                    continue;
                }
                idleUntilWork();
            }
        }

        private boolean spinForWork() {
            for (int i = 0; i < SPINS; i++) {
                Thread.onSpinWait();
                if (!ready.isEmpty() || untilDue() <= 0) {
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
                long until = untilDue();
                if (until <= 0) {
                    return;
                }
                if (until != Long.MAX_VALUE && timekeeper.compareAndSet(false, true)) {
                    keeper = this;
                    try {
                        // a deadline that became earlier after untilDue() unparks the keeper (dueEarlier)
                        until = untilDue();
                        if (until > 0) {
                            LockSupport.parkNanos(this, until);
                        }
                    } finally {
                        keeper = null;
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
     * @param sources what becomes due at deadlines (the emulated network, the timers): the workers run it
     * @param name    thread name prefix
     * @throws IllegalArgumentException if {@code threads} is not positive
     */
    ActorPool(int threads, List<DueSource> sources, String name) {
        if (threads <= 0) {
            throw new IllegalArgumentException("an actor pool needs at least one thread, got " + threads);
        }
        this.sources = sources.toArray(new DueSource[0]);
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
     * A source's earliest deadline moved earlier (the line went from empty to holding a message, or a timer is the
     * new first): the timekeeper, parked until a later deadline, is woken to look again; without one, an idle
     * worker is woken to become it (a busy worker looks at the sources after its current run).
     */
    void dueEarlier() {
        Worker k = keeper;
        if (k != null) {
            LockSupport.unpark(k.thread);
        } else if (idle.get() > 0) {
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

    private int runDue() {
        int n = 0;
        for (DueSource s : sources) {
            if (s.untilDue() <= 0) {
                n += s.runDue();
            }
        }
        return n;
    }

    private long untilDue() {
        long min = Long.MAX_VALUE;
        for (DueSource s : sources) {
            min = Math.min(min, s.untilDue());
        }
        return min;
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

    /** Times a worker went idle so far (docs/simulation.md, "Calibration": each costs a wake-up). */
    long idleEpisodes() {
        return idleEpisodes.sum();
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
