package org.tebaldi.core.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.tebaldi.core.runtime.cost.Hardware;

/**
 * Deterministic simulated runtime (docs/architecture.md, "Runtime"): one thread, virtual time (kept in ns, read in
 * µs), a seeded random one-way delay per message (so messages on different links are reordered; each link stays
 * FIFO, like TCP), and optional random node pauses. It runs the very same actors as the real runtimes. Everything
 * random derives from the seed, so a seed reproduces a run exactly; failures raise {@link SimulationException}
 * naming the seed.
 *
 * <p>With {@link Hardware} (docs/simulation.md, "Cost model") handlers take virtual CPU time: a node's next event
 * waits for a free core of its machine ({@link CoreScheduler}), occupies it for its calibrated cost, and the
 * messages it sent leave when it ends, over the hardware's network instead of the model's delays.
 */
public final class SimulatedRuntime implements NodeRuntime {

    /**
     * Network and fault model.
     *
     * @param minDelayMicros      smallest one-way delay, µs
     * @param maxDelayMicros      largest one-way delay, µs
     * @param pauseIntervalMicros mean time between node pauses, µs (0: no pauses)
     * @param maxPauseMicros      longest pause, µs
     */
    public record Model(long minDelayMicros, long maxDelayMicros, long pauseIntervalMicros, long maxPauseMicros) {
        public Model {
            if (minDelayMicros < 0 || maxDelayMicros < minDelayMicros || pauseIntervalMicros < 0 || maxPauseMicros < 0) {
                throw new IllegalArgumentException("bad simulation model " + this);
            }
        }

        /** Delays of 20–300 µs, no pauses. */
        public static Model jittery() {
            return new Model(20, 300, 0, 0);
        }

        /** Delays of 20–300 µs and a pause of up to 2 ms every 5 ms on average. */
        public static Model withPauses() {
            return new Model(20, 300, 5_000, 2_000);
        }
    }

    static final int START = 0;
    static final int MSG = 1;
    static final int TIMER = 2;
    private static final int EXTERNAL = 3;
    private static final int PAUSE = 4;
    static final int DONE = 5;

    static final class Event implements Comparable<Event>, Cancellable {
        final long time;
        final long seq;
        final int kind;
        final NodeId node;
        final NodeId from;
        final Object payload;
        boolean cancelled;

        Event(long time, long seq, int kind, NodeId node, NodeId from, Object payload) {
            this.time = time;
            this.seq = seq;
            this.kind = kind;
            this.node = node;
            this.from = from;
            this.payload = payload;
        }

        @Override
        public int compareTo(Event o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    final class SimNode implements NodeContext {
        final NodeId id;
        final Actor actor;
        final Random random;
        long pausedUntil;
        /** Hardware mode: the machine, events waiting for this node, sends of the running handler, busy time (ns). */
        int machine;
        final java.util.ArrayDeque<Event> pending = new java.util.ArrayDeque<>();
        final List<Object[]> outbox = new ArrayList<>();
        boolean running;
        boolean ready;
        /** Events left in its current run (hardware mode). */
        int runLeft;
        long busyNanos;

        SimNode(NodeId id, Actor actor) {
            this.id = id;
            this.actor = actor;
            this.random = new Random(seed * 1_000_003L + id.hashCode());
        }

        @Override
        public NodeId self() {
            return id;
        }

        @Override
        public void send(NodeId to, Object msg) {
            if (running) {
                outbox.add(new Object[] {to, msg});
            } else {
                SimulatedRuntime.this.send(id, to, msg);
            }
        }

        @Override
        public Cancellable schedule(long delayMicros, Runnable task) {
            return push(now + Math.max(0, delayMicros) * 1000, TIMER, id, id, task);
        }

        @Override
        public long nowMicros() {
            return now / 1000;
        }

        @Override
        public Random random() {
            return random;
        }
    }

    private final long seed;
    private final Model model;
    private final Random random;
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final Map<NodeId, SimNode> nodes = new HashMap<>();
    private final List<NodeId> order = new ArrayList<>();
    private final Map<Long, Long> lastDelivery = new HashMap<>();
    private final MessageStats stats = new MessageStats();
    private final CoreScheduler cores;
    /** Virtual time, ns. */
    long now;
    private long seq;
    private long steps;

    public SimulatedRuntime(long seed, Model model) {
        this(seed, model, null);
    }

    /**
     * A runtime whose handlers take virtual CPU time on {@code hardware} (null: handlers take no time, messages
     * the model's delays).
     *
     * @throws IllegalArgumentException if both the model's pauses and hardware are asked for
     */
    public SimulatedRuntime(long seed, Model model, Hardware hardware) {
        this.seed = seed;
        this.model = model;
        this.random = new Random(seed);
        if (hardware != null && model.pauseIntervalMicros() > 0) {
            throw new IllegalArgumentException("node pauses are not modelled together with hardware costs");
        }
        this.cores = hardware == null ? null : new CoreScheduler(this, hardware);
        if (model.pauseIntervalMicros() > 0) {
            push(nextPauseGap(), PAUSE, null, null, null);
        }
    }

    public long seed() {
        return seed;
    }

    /** Current virtual time, µs. */
    public long nowMicros() {
        return now / 1000;
    }

    /** Current virtual time, ns. */
    public long nowNanos() {
        return now;
    }

    /** Events handled so far. */
    public long steps() {
        return steps;
    }

    /** The core scheduler of hardware mode (utilization per node and machine), or null. */
    public CoreScheduler cores() {
        return cores;
    }

    @Override
    public void spawn(NodeId id, Actor actor) {
        if (nodes.containsKey(id)) {
            throw new IllegalStateException("node " + id + " already exists");
        }
        SimNode n = new SimNode(id, actor);
        if (cores != null) {
            n.machine = cores.machineOf(id);
        }
        nodes.put(id, n);
        order.add(id);
        push(now, START, id, id, null);
    }

    @Override
    public void inject(NodeId to, Object msg) {
        push(now, MSG, to, to, msg);
    }

    /** Runs {@code task} outside any node at virtual time {@code atMicros} (test driver code). */
    public Cancellable at(long atMicros, Runnable task) {
        return push(Math.max(now, atMicros * 1000), EXTERNAL, null, null, task);
    }

    /**
     * Handles events in time order up to {@code untilMicros}; afterwards the clock reads {@code untilMicros}.
     *
     * @throws SimulationException if actor code throws
     */
    public void runUntil(long untilMicros) {
        long until = untilMicros * 1000;
        while (!events.isEmpty() && events.peek().time <= until) {
            step();
        }
        now = Math.max(now, until);
    }

    /**
     * Handles events until {@code done} holds, no event is left, or the clock passes {@code limitMicros}.
     *
     * @return whether {@code done} holds at the end
     */
    public boolean runUntil(BooleanSupplier done, long limitMicros) {
        long limit = limitMicros * 1000;
        while (!done.getAsBoolean() && !events.isEmpty() && events.peek().time <= limit) {
            step();
        }
        return done.getAsBoolean();
    }

    /** True if no event is pending except recurring pauses. */
    public boolean idle() {
        return events.stream().allMatch(e -> e.kind == PAUSE || e.cancelled);
    }

    @Override
    public MessageStats stats() {
        return stats;
    }

    @Override
    public void close() {
        events.clear();
    }

    void send(NodeId from, NodeId to, Object msg) {
        stats.record(msg);
        long t;
        if (cores != null) {
            t = cores.arrival(from, to, msg, random);
        } else {
            long delay = model.minDelayMicros()
                    + (model.maxDelayMicros() > model.minDelayMicros()
                    ? (long) (random.nextDouble() * (model.maxDelayMicros() - model.minDelayMicros() + 1)) : 0);
            t = now + delay * 1000;
        }
        long link = ((long) from.hashCode() << 32) ^ (to.hashCode() & 0xffffffffL);
        t = Math.max(t, lastDelivery.getOrDefault(link, 0L));
        lastDelivery.put(link, t);
        push(t, MSG, to, from, msg);
    }

    Event push(long time, int kind, NodeId node, NodeId from, Object payload) {
        Event e = new Event(time, seq++, kind, node, from, payload);
        events.add(e);
        return e;
    }

    SimNode node(NodeId id) {
        return nodes.get(id);
    }

    /** Every node spawned so far, in spawn order. */
    public List<NodeId> nodeIds() {
        return java.util.Collections.unmodifiableList(order);
    }

    private long nextPauseGap() {
        return now + 1000 + (long) (-Math.log(1 - random.nextDouble()) * model.pauseIntervalMicros()) * 1000;
    }

    private void step() {
        Event e = events.poll();
        now = e.time;
        if (e.cancelled) {
            return;
        }
        steps++;
        if (e.kind == PAUSE) {
            if (!order.isEmpty()) {
                SimNode n = nodes.get(order.get(random.nextInt(order.size())));
                n.pausedUntil = Math.max(n.pausedUntil,
                        now + 1000 + (long) (random.nextDouble() * model.maxPauseMicros()) * 1000);
            }
            push(nextPauseGap(), PAUSE, null, null, null);
            return;
        }
        if (e.kind == EXTERNAL) {
            run(e, () -> ((Runnable) e.payload).run());
            return;
        }
        SimNode n = nodes.get(e.node);
        if (n == null) {
            return;
        }
        if (cores != null) {
            if (e.kind == DONE) {
                cores.done(n);
            } else {
                cores.arrive(n, e);
            }
            return;
        }
        if (n.pausedUntil > now) {
            // keep the original sequence number so that re-queued events stay in send order (FIFO per link)
            events.add(new Event(n.pausedUntil, e.seq, e.kind, e.node, e.from, e.payload));
            return;
        }
        handle(n, e);
    }

    /** Runs a node's event now (its handler, timer or start). */
    void handle(SimNode n, Event e) {
        switch (e.kind) {
            case START -> run(e, () -> n.actor.onStart(n));
            case TIMER -> run(e, () -> ((Runnable) e.payload).run());
            default -> run(e, () -> n.actor.onMessage(e.from, e.payload));
        }
    }

    private void run(Event e, Runnable r) {
        try {
            r.run();
        } catch (SimulationException se) {
            throw se;
        } catch (RuntimeException | AssertionError ex) {
            String what = e.payload == null ? "start" : e.payload.getClass().getSimpleName();
            throw new SimulationException(seed, "at t=" + now / 1000 + "µs, node " + e.node + " failed on " + what
                    + ": " + ex, ex);
        }
    }
}
