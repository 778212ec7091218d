package org.tebaldi.core.runtime;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Real-time runtime for embedded mode (docs/architecture.md, "Runtime"): all actors of one JVM share a small executor (one thread
 * per core by default); each actor has a mailbox and runs on at most one thread at a time. Timers and
 * emulated network delays wait on a {@link DelayScheduler}. An exception thrown by actor code is logged and
 * kept in {@link #failures()}; the actor goes on with its next message. In process mode the actors may instead run
 * on a given executor, e.g. the Netty event loop of the node's transport, so a received message reaches its actor,
 * and the actor's sends reach the socket, without a thread hand-off ({@link #EmbeddedRuntime(Executor, Function)}).
 */
public final class EmbeddedRuntime implements NodeRuntime, Inbox {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRuntime.class);
    private static final int BATCH = 128;
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    private final ConcurrentHashMap<NodeId, Cell> cells = new ConcurrentHashMap<>();
    /** Where cells run: {@link #pool}, or an executor given by the caller. */
    private final Executor executor;
    /** The pool this runtime owns and shuts down, or null when the caller's executor runs the cells. */
    private final ForkJoinPool pool;
    /** Runs actor timers when the given executor can (a Netty event loop): they then fire on the actors' thread. */
    private final ScheduledExecutorService timers;
    private volatile boolean closed;
    private final DelayScheduler scheduler = new DelayScheduler("tebaldi-timers");
    private final MessageStats stats = new MessageStats();
    private final Transport transport;
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final long epochNanos = System.nanoTime();
    private final long seed = System.nanoTime();

    /**
     * A runtime with the local transport.
     *
     * @param threads     executor threads; {@code <= 0} means one per available core
     * @param delayMicros emulated one-way network delay in µs
     */
    public EmbeddedRuntime(int threads, long delayMicros) {
        this(threads, rt -> new LocalTransport(rt, delayMicros, rt.scheduler, rt.stats));
    }

    /**
     * A runtime with a custom transport (e.g. Netty in process mode).
     *
     * @param transportFactory builds the transport given this runtime as its local inbox
     */
    public EmbeddedRuntime(int threads, Function<EmbeddedRuntime, Transport> transportFactory) {
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        pool = new ForkJoinPool(n, ForkJoinPool.defaultForkJoinWorkerThreadFactory,
                (t, e) -> LOG.error("uncaught in " + t.getName(), e), true);
        executor = pool;
        timers = null;
        transport = transportFactory.apply(this);
    }

    /**
     * A runtime whose actors all run on {@code executor}, one task per batch of up to 128 messages of one actor.
     * With a single-threaded executor shared with the transport (a Netty {@code EventLoop}), a message the
     * transport decodes is handled on the same thread in the same event-loop turn, and what the actor sends is
     * written by that thread too. If the executor is a {@link ScheduledExecutorService} (an event loop is), actor
     * timers are scheduled on it too, so they fire on that thread without the timer thread's hand-off. The
     * executor must run tasks one at a time per submitter and never block; this runtime does not shut it down (its
     * owner does, e.g. the transport on {@link #close}), and work submitted after it stopped is dropped.
     *
     * @param executor         runs the actors, e.g. {@code eventLoopGroup.next()}
     * @param transportFactory builds the transport given this runtime as its local inbox
     */
    public EmbeddedRuntime(Executor executor, Function<EmbeddedRuntime, Transport> transportFactory) {
        this.pool = null;
        this.executor = executor;
        this.timers = executor instanceof ScheduledExecutorService s ? s : null;
        transport = transportFactory.apply(this);
    }

    @Override
    public void spawn(NodeId id, Actor actor) {
        Cell c = new Cell(id, actor);
        if (cells.putIfAbsent(id, c) != null) {
            throw new IllegalStateException("node " + id + " already exists");
        }
        c.enqueue(id, Cell.START);
    }

    @Override
    public void deliver(NodeId from, NodeId to, Object msg) {
        Cell c = cells.get(to);
        if (c == null) {
            LOG.warn("dropping {} from {}: no node {}", msg.getClass().getSimpleName(), from, to);
            return;
        }
        c.enqueue(from, msg);
    }

    @Override
    public void inject(NodeId to, Object msg) {
        deliver(to, to, msg);
    }

    /** Whether a node with that address runs here. */
    public boolean hosts(NodeId id) {
        return cells.containsKey(id);
    }

    /** The scheduler used for timers and delays (shared with transports). */
    public DelayScheduler scheduler() {
        return scheduler;
    }

    @Override
    public MessageStats stats() {
        return stats;
    }

    /** Exceptions thrown by actor code so far (empty in a healthy run). */
    public List<Throwable> failures() {
        return failures;
    }

    /**
     * CPU time each node's handlers used so far, ns, by node: measured on the executor thread around each batch of
     * messages a node handles (so per batch, not per message); timers and emulated delays running on the scheduler
     * thread are not in it. May be read from any thread.
     */
    public Map<NodeId, Long> cpuNanos() {
        Map<NodeId, Long> out = new java.util.TreeMap<>(java.util.Comparator.comparing(NodeId::toString));
        cells.forEach((id, c) -> out.put(id, c.cpuNanos));
        return out;
    }

    /** Number of executor threads (1 on a given executor). */
    public int threads() {
        return pool == null ? 1 : pool.getParallelism();
    }

    @Override
    public void close() {
        closed = true;
        transport.close();
        scheduler.close();
        if (pool == null) {
            return;
        }
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void submit(Cell c) {
        try {
            executor.execute(c);
        } catch (RejectedExecutionException e) {
            if (!closed) {
                throw e;
            }
            // the executor stopped with the runtime: the message is dropped like any other after close
        }
    }

    private record Envelope(NodeId from, Object msg) {
    }

    /** An actor timer; cancelling drops the task at once, so the timer retains nothing until its deadline. */
    private static final class TimerTick implements Cancellable {
        volatile Runnable task;
        volatile Cancellable pending;

        TimerTick(Runnable task) {
            this.task = task;
        }

        @Override
        public void cancel() {
            task = null;
            Cancellable p = pending;
            if (p != null) {
                p.cancel();
            }
        }
    }

    private final class Cell implements Runnable, NodeContext {
        static final Object START = new Object();
        final NodeId id;
        final Actor actor;
        final ConcurrentLinkedQueue<Envelope> mailbox = new ConcurrentLinkedQueue<>();
        final AtomicBoolean scheduled = new AtomicBoolean();
        final Random random;
        /** CPU time of this node's handlers so far, ns (written by the thread running the cell). */
        volatile long cpuNanos;

        Cell(NodeId id, Actor actor) {
            this.id = id;
            this.actor = actor;
            this.random = new Random(seed ^ id.hashCode());
        }

        void enqueue(NodeId from, Object msg) {
            mailbox.offer(new Envelope(from, msg));
            if (scheduled.compareAndSet(false, true)) {
                submit(this);
            }
        }

        @Override
        public void run() {
            long cpu = CPU.isCurrentThreadCpuTimeSupported() ? CPU.getCurrentThreadCpuTime() : 0;
            for (int i = 0; i < BATCH; i++) {
                Envelope e = mailbox.poll();
                if (e == null) {
                    break;
                }
                handle(e);
            }
            if (cpu != 0) {
                cpuNanos += CPU.getCurrentThreadCpuTime() - cpu;
            }
            scheduled.set(false);
            if (!mailbox.isEmpty() && scheduled.compareAndSet(false, true)) {
                submit(this);
            }
        }

        private void handle(Envelope e) {
            try {
                if (e.msg == START) {
                    actor.onStart(this);
                } else if (e.msg instanceof TimerTick t) {
                    Runnable task = t.task;
                    if (task != null) {
                        task.run();
                    }
                } else {
                    actor.onMessage(e.from, e.msg);
                }
            } catch (Throwable t) {
                failures.add(t);
                LOG.error("node {} failed handling {}", id, e.msg.getClass().getSimpleName(), t);
            }
        }

        @Override
        public NodeId self() {
            return id;
        }

        @Override
        public void send(NodeId to, Object msg) {
            transport.send(id, to, msg);
        }

        @Override
        public Cancellable schedule(long delayMicros, Runnable task) {
            TimerTick t = new TimerTick(task);
            if (delayMicros <= 0) {
                enqueue(id, t);
            } else {
                if (timers == null) {
                    t.pending = scheduler.schedule(delayMicros * 1000, () -> enqueue(id, t));
                } else {
                    scheduleOnExecutor(t, delayMicros);
                }
            }
            return t;
        }

        private void scheduleOnExecutor(TimerTick t, long delayMicros) {
            try {
                ScheduledFuture<?> f = timers.schedule(() -> enqueue(id, t), delayMicros, TimeUnit.MICROSECONDS);
                t.pending = () -> f.cancel(false);
            } catch (RejectedExecutionException e) {
                if (!closed) {
                    throw e;
                }
            }
        }

        @Override
        public long nowMicros() {
            return (System.nanoTime() - epochNanos) / 1000;
        }

        @Override
        public Random random() {
            return random;
        }
    }
}
