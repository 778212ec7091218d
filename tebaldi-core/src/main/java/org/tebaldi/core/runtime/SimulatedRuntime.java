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
 * naming the seed. Injected faults (docs/simulation.md, "Faults"; state in {@link SimFaults}): {@link #delaySpike},
 * {@link #dropLink}, {@link #clockSkew}, {@link #pause}, {@link #crash} and {@link #respawn}.
 *
 * <p>With {@link Hardware} (docs/simulation.md, "Cost model") handlers take virtual CPU time: a node's next event
 * waits for a free core of its machine ({@link CoreScheduler}), holds it for its calibrated cost, and the
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
    static final int JOB_DONE = 6;

    static final class Event implements Comparable<Event>, Cancellable {
        final long time;
        final long seq;
        final int kind;
        final NodeId node;
        final NodeId from;
        final Object payload;
        boolean cancelled;
        /** Re-queued by a pause: it had arrived at its node already (a connection drop cannot lose it). */
        boolean held;

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
        /** 0 for the first actor under this id, then +1 per {@link #respawn}. */
        final int incarnation;
        /** Crashed: its context sends and schedules nothing more. */
        boolean dead;
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

        SimNode(NodeId id, Actor actor, int incarnation) {
            this.id = id;
            this.actor = actor;
            this.incarnation = incarnation;
            this.random = new Random(seed * 1_000_003L + id.hashCode() + 7919L * incarnation);
        }

        @Override
        public NodeId self() {
            return id;
        }

        @Override
        public void send(NodeId to, Object msg) {
            if (dead) {
                return;
            }
            if (running) {
                outbox.add(new Object[] {to, msg});
            } else {
                SimulatedRuntime.this.send(id, to, msg);
            }
        }

        @Override
        public Cancellable schedule(long delayMicros, Runnable task) {
            if (dead) {
                return () -> { };
            }
            return push(now + faults.timerDelay(id, Math.max(0, delayMicros) * 1000), TIMER, id, id, task);
        }

        /** This node's clock: virtual time, skewed by {@link #clockSkew}. */
        @Override
        public long nowMicros() {
            return faults.clock(id, now) / 1000;
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
    private final SimFaults faults = new SimFaults();
    /** Virtual time, ns. */
    long now;
    private long seq;
    private long steps;
    private long lost;

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
        SimNode n = new SimNode(id, actor, 0);
        if (cores != null) {
            n.machine = cores.machineOf(id);
        }
        nodes.put(id, n);
        order.add(id);
        push(now, START, id, id, null);
    }

    @Override
    public void inject(NodeId to, Object msg) {
        if (faults.isCrashed(to)) {
            return;
        }
        push(now, MSG, to, to, msg);
    }

    /**
     * Work of a helper thread of node {@code owner} — e.g. a data server's store writer (server
     * {@code durability.SimLogStore}), which the real engine runs beside the node's actor: {@code cpuNanos} of CPU on
     * the owner's machine (with hardware: a core of it, taken in turn with the machine's ready nodes, not the owner
     * itself, which goes on handling its events), then {@code done} runs outside any node — it hands results to the
     * owner with {@link #inject}. Without hardware, {@code done} runs after {@code cpuNanos}.
     */
    public void background(NodeId owner, long cpuNanos, Runnable done) {
        if (cores == null) {
            push(now + Math.max(0, cpuNanos), EXTERNAL, null, null, done);
            return;
        }
        SimNode n = nodes.get(owner);
        cores.background(n != null ? n.machine : cores.machineOf(owner), Math.max(0, cpuNanos), done);
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

    // ---- injected faults (docs/simulation.md, "Faults") ---------------------------------------------------------

    /**
     * A delay spike: every message sent from {@code from} to {@code to} (null = any node) during
     * [{@code fromMicros}, {@code untilMicros}) of virtual time takes {@code extraMicros} µs more. Each link stays
     * FIFO: a message never overtakes an earlier one on its link, so later messages queue behind a delayed one.
     *
     * @throws IllegalArgumentException if the window is empty or the extra delay negative
     */
    public void delaySpike(NodeId from, NodeId to, long fromMicros, long untilMicros, long extraMicros) {
        if (untilMicros <= fromMicros || extraMicros < 0) {
            throw new IllegalArgumentException("bad delay spike: [" + fromMicros + ", " + untilMicros + ") µs, +"
                    + extraMicros + " µs");
        }
        faults.spike(from, to, fromMicros * 1000, untilMicros * 1000, extraMicros * 1000);
        faults.count("delay-spike");
    }

    /**
     * Drops the connection between {@code a} and {@code b} (both directions) during [{@code fromMicros},
     * {@code untilMicros}), with the contract of the Netty transport ({@code net.Peer} in tebaldi-server): the
     * messages in flight on it at {@code fromMicros} — written to the dead connection — are LOST; messages sent
     * while it is down wait in the sender's queue and leave, in order, once it reconnects at {@code untilMicros}
     * (each then crossing with its own delay). Nothing is ever duplicated or resent: TCP delivers a connection's
     * bytes at most once and the transport never retransmits, so duplicated deliveries cannot happen and are not
     * injected. A message that has reached its node (held there by a pause) is not lost.
     *
     * @throws IllegalArgumentException if the window is empty or {@code a} equals {@code b}
     */
    public void dropLink(NodeId a, NodeId b, long fromMicros, long untilMicros) {
        if (untilMicros <= fromMicros || a.equals(b)) {
            throw new IllegalArgumentException("bad link drop " + a + "–" + b + ": [" + fromMicros + ", "
                    + untilMicros + ") µs");
        }
        faults.drop(a, b, fromMicros * 1000, untilMicros * 1000);
        faults.count("drop-link");
        at(fromMicros, () -> {
            for (Event e : events) {
                if (e.kind == MSG && !e.held && !e.cancelled && e.time > now && e.from != null
                        && SimFaults.sameLink(a, b, e.from, e.node)) {
                    e.cancelled = true;
                    lost++;
                }
            }
        });
    }

    /**
     * Skews node {@code n}'s clock from now on: it reads {@code offsetMicros} ahead (negative: behind) and runs
     * {@code driftPpm} parts per million fast (negative: slow), so its {@link NodeContext#nowMicros()} — and every
     * deadline it computes from it — is off. Its timers follow its own clock: a timer of d µs fires when the node's
     * clock advanced d µs, i.e. after d / (1 + driftPpm·10⁻⁶) virtual µs (the offset does not move timers). Only
     * the node's clock is wrong; messages still cross in virtual time.
     *
     * @throws IllegalArgumentException if {@code driftPpm <= -10⁶} (the clock would stand still or run backwards)
     */
    public void clockSkew(NodeId n, long offsetMicros, double driftPpm) {
        faults.skew(n, now, offsetMicros * 1000, driftPpm);
        faults.count("clock-skew");
    }

    /**
     * Pauses node {@code n} during [{@code fromMicros}, {@code untilMicros}) (a GC pause or SIGSTOP): nothing of it
     * runs — messages and timers that come due wait, in order, and run when it resumes; messages keep arriving.
     *
     * @throws IllegalStateException with hardware costs (pauses are not modelled there)
     */
    public void pause(NodeId n, long fromMicros, long untilMicros) {
        if (cores != null) {
            throw new IllegalStateException("node pauses are not modelled together with hardware costs");
        }
        faults.count("pause");
        at(fromMicros, () -> {
            SimNode s = nodes.get(n);
            if (s != null) {
                s.pausedUntil = Math.max(s.pausedUntil, untilMicros * 1000);
            }
        });
    }

    /**
     * Crashes node {@code n} now: its actor is gone — its queued messages, timers and start are dropped, and so is
     * every later message to it (also those in flight to it now); what it sent before stays in flight. Nobody is
     * told: the cluster's failure detector does that ({@code cluster.Cluster} sends {@link NodeDown}).
     *
     * @throws IllegalArgumentException if there is no such node or it crashed already
     * @throws IllegalStateException    with hardware costs (crashes are not modelled there)
     */
    public void crash(NodeId n) {
        if (cores != null) {
            throw new IllegalStateException("node crashes are not modelled together with hardware costs");
        }
        SimNode s = nodes.get(n);
        if (s == null || s.dead) {
            throw new IllegalArgumentException("cannot crash " + n + ": " + (s == null ? "no such node" : "crashed already"));
        }
        s.dead = true;
        faults.crashed(n, true);
        faults.count("crash");
        for (Event e : events) {
            if (n.equals(e.node)) {
                e.cancelled = true;
            }
        }
    }

    /**
     * Starts {@code actor} under the id of crashed node {@code n} (a restarted process): a new incarnation with its
     * own random stream; it starts now and receives what is sent to {@code n} from now on.
     *
     * @throws IllegalArgumentException if {@code n} has not crashed
     */
    public void respawn(NodeId n, Actor actor) {
        SimNode old = nodes.get(n);
        if (old == null || !old.dead) {
            throw new IllegalArgumentException("cannot respawn " + n + ": it " + (old == null ? "does not exist"
                    : "has not crashed"));
        }
        nodes.put(n, new SimNode(n, actor, old.incarnation + 1));
        faults.crashed(n, false);
        faults.count("respawn");
        push(now, START, n, n, null);
    }

    /** Whether node {@code n} has crashed and not been respawned. */
    public boolean crashed(NodeId n) {
        return faults.isCrashed(n);
    }

    /**
     * Delivers {@code msg} to {@code to} as if {@code from} sent it after everything it sent before: at least
     * {@code delayMicros} from now and after the last message in flight on the link {@code from → to} (faults
     * aside). The failure detector's notice ({@link NodeDown}) of a crashed node: in process mode it comes a
     * session timeout (seconds) later, after anything the node wrote before it died.
     */
    public void notifyAfterLink(NodeId from, NodeId to, Object msg, long delayMicros) {
        if (faults.isCrashed(to)) {
            return;
        }
        long t = Math.max(now + delayMicros * 1000, lastDelivery.getOrDefault(link(from, to), 0L));
        push(t, MSG, to, from, msg);
    }

    /** Faults injected so far, by kind (delay-spike, drop-link, clock-skew, pause, crash, respawn). */
    public java.util.Map<String, Integer> faultCounts() {
        return faults.counts();
    }

    /** Messages lost so far because their connection dropped while they were in flight. */
    public long lostMessages() {
        return lost;
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
        if (faults.isCrashed(to)) {
            return;
        }
        t = faults.arrival(from, to, now, t);
        long link = link(from, to);
        t = Math.max(t, lastDelivery.getOrDefault(link, 0L));
        lastDelivery.put(link, t);
        push(t, MSG, to, from, msg);
    }

    private static long link(NodeId from, NodeId to) {
        return ((long) from.hashCode() << 32) ^ (to.hashCode() & 0xffffffffL);
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
        if (e.kind == JOB_DONE) {
            run(e, () -> cores.jobDone((CoreScheduler.Job) e.payload));
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
            Event again = new Event(n.pausedUntil, e.seq, e.kind, e.node, e.from, e.payload);
            again.held = true;
            events.add(again);
            return;
        }
        handle(n, e);
    }

    /** Sees a message just before its handler runs (tests: fault injection at a protocol step). */
    @FunctionalInterface
    public interface DeliveryWatch {
        /** {@code msg} from {@code from} is about to be handled by {@code to}. */
        void delivering(NodeId to, NodeId from, Object msg);
    }

    private DeliveryWatch watch;

    /**
     * Installs {@code w} (null removes it): it sees every message just before its handler runs — e.g. to crash a
     * node right after a given protocol step ({@link #at} now: the crash follows the handler and its sends).
     */
    public void watchDeliveries(DeliveryWatch w) {
        this.watch = w;
    }

    /** Runs a node's event now (its handler, timer or start). */
    void handle(SimNode n, Event e) {
        switch (e.kind) {
            case START -> run(e, () -> n.actor.onStart(n));
            case TIMER -> run(e, () -> ((Runnable) e.payload).run());
            default -> run(e, () -> {
                if (watch != null) {
                    watch.delivering(e.node, e.from, e.payload);
                }
                n.actor.onMessage(e.from, e.payload);
            });
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
