package org.tebaldi.core.runtime;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.cost.HandlerProfile;

/**
 * Real-time runtime for embedded mode (docs/architecture.md, "Runtime"): all actors of one JVM share a small executor
 * (one thread per core by default, an {@link ActorPool}); each actor has a mailbox and runs on at most one thread
 * at a time. Timers wait on a {@link DelayScheduler}; emulated network delays on a {@link DelayLine}; the pool's
 * workers run both. Each actor lives in an {@link ActorCell}. An exception thrown by actor code is logged and kept in {@link #failures()}; the actor goes on
 * with its next message. In process mode the actors may instead run on a given executor, the Netty event loop of
 * the node's transport, so a received message reaches its actor, and the actor's sends reach the socket, without
 * a thread hand-off; timers then fire on that loop ({@link #EmbeddedRuntime(ScheduledExecutorService, Function)}).
 */
public final class EmbeddedRuntime implements NodeRuntime, Inbox {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRuntime.class);

    private final ConcurrentHashMap<NodeId, ActorCell> cells = new ConcurrentHashMap<>();
    /** The pool this runtime owns, or null when the caller's executor runs the cells. */
    private final ActorPool pool;
    /** Where cells run: {@link #pool}, or the executor given by the caller. */
    private final Executor executor;
    /** The caller's executor, which also runs the timers; null with the pool. */
    private final ScheduledExecutorService loop;
    private volatile boolean closed;
    /** Whether new nodes start with handler profiling on ({@link #profileHandlers}). */
    private volatile boolean profiling;
    private final DelayLine network;
    private final DelayScheduler scheduler = new DelayScheduler();
    private final MessageStats stats = new MessageStats();
    private final Transport transport;
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    /** The {@link System#nanoTime()} reading at which {@code nowMicros()} reads 0. */
    private volatile long epochNanos = System.nanoTime();
    private final long seed = System.nanoTime();

    /**
     * A runtime with the local transport.
     *
     * @param threads     worker threads; {@code <= 0} means one per available core
     * @param delayMicros emulated one-way network delay in µs (0: none)
     * @throws IllegalArgumentException for a negative delay
     */
    public EmbeddedRuntime(int threads, long delayMicros) {
        this(threads, checked(delayMicros), null);
    }

    /**
     * A runtime with a custom transport (e.g. Netty in process mode).
     *
     * @param transportFactory builds the transport given this runtime as its local inbox
     */
    public EmbeddedRuntime(int threads, Function<EmbeddedRuntime, Transport> transportFactory) {
        this(threads, 0, transportFactory);
    }

    private EmbeddedRuntime(int threads, long delayMicros, Function<EmbeddedRuntime, Transport> transportFactory) {
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        network = transportFactory == null && delayMicros > 0 ? new DelayLine(delayMicros * 1000, this) : null;
        pool = new ActorPool(n, network == null ? List.of(scheduler) : List.of(network, scheduler), "tebaldi-node");
        executor = pool;
        loop = null;
        scheduler.onEarlierDeadline(pool::dueEarlier);
        transport = transportFactory != null ? transportFactory.apply(this)
                : new LocalTransport(this, network, pool::dueEarlier, stats);
    }

    /**
     * A runtime whose actors all run on {@code loop}, one task per batch of up to 128 messages of one actor, and
     * whose timers are scheduled on it too. With a single-threaded loop shared with the transport (a Netty
     * {@code EventLoop}), a message the transport decodes is handled on the same thread in the same event-loop turn,
     * and what the actor sends is written by that thread too. The loop must run tasks one at a time and never block;
     * this runtime does not shut it down (its owner does, e.g. the transport on {@link #close}), and work submitted
     * after it stopped is dropped.
     *
     * @param loop             runs the actors and their timers, e.g. {@code eventLoopGroup.next()}
     * @param transportFactory builds the transport given this runtime as its local inbox
     */
    public EmbeddedRuntime(ScheduledExecutorService loop, Function<EmbeddedRuntime, Transport> transportFactory) {
        this.pool = null;
        this.network = null;
        this.executor = loop;
        this.loop = loop;
        transport = transportFactory.apply(this);
    }

    /**
     * Counts this runtime's clock ({@code NodeContext.nowMicros()}) from {@code originWallMicros}, a wall-clock
     * instant in µs since 1970-01-01 that every process of a cluster shares (the cluster manifest's clock origin):
     * the clock reads the wall clock's µs since that origin now and advances with {@link System#nanoTime()} from
     * then on (monotonic; not moved by later wall-clock steps). Without it each process's clock starts at 0 when
     * its own runtime was made, and two processes' clocks differ by their start times — hundreds of ms between node
     * JVMs launched one after another, which DST's hybrid clocks and the replica watermarks would read as skew.
     * Call before any node runs. {@code originWallMicros <= 0}: no change.
     */
    public void alignClock(long originWallMicros) {
        if (originWallMicros <= 0) {
            return;
        }
        java.time.Instant now = java.time.Instant.now();
        long nanos = System.nanoTime();
        long wallMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        epochNanos = nanos - (wallMicros - originWallMicros) * 1_000L;
    }

    private static long checked(long delayMicros) {
        if (delayMicros < 0) {
            throw new IllegalArgumentException("network delay must be >= 0 µs, got " + delayMicros);
        }
        return delayMicros;
    }

    @Override
    public void spawn(NodeId id, Actor actor) {
        ActorCell c = new ActorCell(this, id, actor, new Random(seed ^ id.hashCode()));
        if (cells.putIfAbsent(id, c) != null) {
            throw new IllegalStateException("node " + id + " already exists");
        }
        c.profile.enabled(profiling);
        c.enqueue(id, ActorCell.START);
    }

    @Override
    public void deliver(NodeId from, NodeId to, Object msg) {
        ActorCell c = cells.get(to);
        if (c == null) {
            LOG.warn("dropping {} from {}: no node {}", msg.getClass().getSimpleName(), from, to);
            return;
        }
        c.enqueue(from, msg);
    }

    /**
     * Enqueues every message first, then schedules each receiving actor that is not yet scheduled once: a delivery
     * round of the emulated network wakes an executor thread per actor, not per message.
     */
    @Override
    public void deliverAll(NodeId[] froms, NodeId[] tos, Object[] msgs, int n) {
        ActorCell last = null;
        ActorCell[] touched = new ActorCell[Math.min(n, 16)];
        int k = 0;
        for (int i = 0; i < n; i++) {
            ActorCell c = last != null && last.id.equals(tos[i]) ? last : cells.get(tos[i]);
            if (c == null) {
                LOG.warn("dropping {} from {}: no node {}", msgs[i].getClass().getSimpleName(), froms[i], tos[i]);
                continue;
            }
            c.mailbox.put(froms[i], msgs[i]);
            if (c != last) {
                boolean seen = false;
                for (int j = 0; j < k && !seen; j++) {
                    seen = touched[j] == c;
                }
                if (!seen) {
                    if (k == touched.length) {
                        touched = java.util.Arrays.copyOf(touched, k * 2);
                    }
                    touched[k++] = c;
                }
                last = c;
            }
        }
        for (int j = 0; j < k; j++) {
            touched[j].wake();
        }
    }

    @Override
    public void inject(NodeId to, Object msg) {
        deliver(to, to, msg);
    }

    /** Whether a node with that address runs here. */
    public boolean hosts(NodeId id) {
        return cells.containsKey(id);
    }

    /** The actor timers (run by the workers). */
    public DelayScheduler scheduler() {
        return scheduler;
    }

    /** The emulated network's delay line, or null (no delay, or another transport). */
    public DelayLine network() {
        return network;
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
     * CPU time each node's handlers used so far, ns, by node: the executor thread's CPU clock read around one in
     * {@value ActorCell#CPU_SAMPLE} runs of the node's mailbox (a run handles up to {@value ActorCell#BATCH} messages), scaled up — an
     * estimate, exact on average; timers waiting and emulated delays are not in it. May be read from any thread.
     */
    public Map<NodeId, Long> cpuNanos() {
        Map<NodeId, Long> out = new java.util.TreeMap<>(java.util.Comparator.comparing(NodeId::toString));
        cells.forEach((id, c) -> out.put(id, c.cpuNanos));
        return out;
    }

    /**
     * Turns handler profiling on or off at every node, present and future (docs/simulation.md, "Calibration"): while
     * on, each handled message and timer task is timed with {@link System#nanoTime()} around its handler and
     * recorded in the node's {@link HandlerProfile} (keys {@code "<role> <MessageSimpleName>"} and
     * {@code "<role> timer"}, ns; the actor's start is not recorded). A mailbox run already under way keeps the
     * setting it started with. Off (the default) costs one volatile read per mailbox run. Sums accumulate over every
     * period profiling was on; they are never cleared.
     */
    public void profileHandlers(boolean on) {
        profiling = on;
        cells.values().forEach(c -> c.profile.enabled(on));
    }

    /**
     * Every node's handler sums merged by handler key (sorted; times in ns, see {@link HandlerProfile.Sums}).
     * Threading: each node's profile is written by whichever worker runs the node, without locks, so call this only
     * when the cluster is quiet or after {@link #profileHandlers profileHandlers(false)} and the last mailbox runs
     * ended (e.g. after the run drained); read during a run, a sum may miss or tear its latest handler.
     */
    public Map<String, HandlerProfile.Sums> handlerTotals() {
        Map<String, HandlerProfile.Sums> out = HandlerProfile.newTotals();
        cells.values().forEach(c -> {
            c.scheduled.get(); // acquire: what the node's last finished run wrote is visible
            c.profile.mergeInto(out);
        });
        return out;
    }

    /**
     * Messages kept as samples while profiling (one of each class in {@value HandlerProfile#SAMPLE_EVERY} per node,
     * see {@link HandlerProfile#samplesInto}), by message class simple name; same threading rule as
     * {@link #handlerTotals}.
     */
    public Map<String, List<Object>> messageSamples() {
        Map<String, List<Object>> out = new java.util.TreeMap<>();
        cells.values().forEach(c -> {
            c.scheduled.get(); // acquire, as in handlerTotals
            c.profile.samplesInto(out);
        });
        return out;
    }

    /** The worker threads' ids (for CPU-time accounting in tests and benchmarks; empty on a given executor). */
    public long[] workerThreadIds() {
        return pool == null ? new long[0] : pool.threadIds();
    }

    /** Number of executor threads. */
    public int threads() {
        return pool == null ? 1 : pool.threads();
    }

    /**
     * Times a worker of this runtime's pool found nothing to run and went idle (spinning, then parked), so far; 0 on
     * a given executor. Calibration fits the CPU the runtime spends outside handlers to it (docs/simulation.md).
     */
    public long idleEpisodes() {
        return pool == null ? 0 : pool.idleEpisodes();
    }

    @Override
    public void close() {
        closed = true;
        transport.close();
        if (pool != null) {
            pool.close();
        }
    }

    /** Runs {@code c}'s mailbox on the executor (dropped once the executor stopped with the runtime). */
    void submit(ActorCell c) {
        try {
            executor.execute(c);
        } catch (RejectedExecutionException e) {
            if (!closed) {
                throw e;
            }
            // the executor stopped with the runtime: the message is dropped like any other after close
        }
    }

    /**
     * Runs {@code task} after {@code delayMicros} µs on the pool's timers or on the caller's loop.
     *
     * @return what cancels it, or null if the loop stopped with the runtime (the task is dropped)
     */
    Cancellable later(long delayMicros, Runnable task) {
        if (loop == null) {
            return scheduler.schedule(delayMicros * 1000, task);
        }
        try {
            ScheduledFuture<?> f = loop.schedule(task, delayMicros, TimeUnit.MICROSECONDS);
            return () -> f.cancel(false);
        } catch (RejectedExecutionException e) {
            if (!closed) {
                throw e;
            }
            return null;
        }
    }

    /** This runtime's clock, µs: see {@link #alignClock}. */
    long clockMicros() {
        return (System.nanoTime() - epochNanos) / 1000;
    }

    /** Keeps an exception thrown by actor code ({@link #failures()}). */
    void failed(Throwable t) {
        failures.add(t);
    }

    Transport transport() {
        return transport;
    }
}
