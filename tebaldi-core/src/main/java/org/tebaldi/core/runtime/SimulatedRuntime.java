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
 * naming the seed. Injected faults (docs/simulation.md, "Faults"): {@link #faults()}; the network of delays and
 * FIFO links: {@link SimNetwork}; its agenda of {@link SimEvent}s, one per start, message, timer or pause.
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

    private final long seed;
    private final Model model;
    private final Random random;
    final PriorityQueue<SimEvent> events = new PriorityQueue<>();
    private final Map<NodeId, SimNode> nodes = new HashMap<>();
    private final List<NodeId> order = new ArrayList<>();
    final SimNetwork network;
    private final MessageStats stats = new MessageStats();
    private final CoreScheduler cores;
    final SimFaults faults = new SimFaults(this);
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
        this.network = new SimNetwork(model);
        if (hardware != null && model.pauseIntervalMicros() > 0) {
            throw new IllegalArgumentException("node pauses are not modelled together with hardware costs");
        }
        this.cores = hardware == null ? null : new CoreScheduler(this, hardware);
        if (model.pauseIntervalMicros() > 0) {
            push(nextPauseGap(), SimEvent.PAUSE, null, null, null);
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
        SimNode n = new SimNode(this, id, actor, 0);
        if (cores != null) {
            n.machine = cores.machineOf(id);
        }
        nodes.put(id, n);
        order.add(id);
        push(now, SimEvent.START, id, id, null);
    }

    @Override
    public void inject(NodeId to, Object msg) {
        if (faults.isCrashed(to)) {
            return;
        }
        push(now, SimEvent.MSG, to, to, msg);
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
            push(now + Math.max(0, cpuNanos), SimEvent.EXTERNAL, null, null, done);
            return;
        }
        SimNode n = nodes.get(owner);
        cores.background(n != null ? n.machine : cores.machineOf(owner), Math.max(0, cpuNanos), done);
    }

    /** Runs {@code task} outside any node at virtual time {@code atMicros} (test driver code). */
    public Cancellable at(long atMicros, Runnable task) {
        return push(Math.max(now, atMicros * 1000), SimEvent.EXTERNAL, null, null, task);
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
        return events.stream().allMatch(e -> e.kind == SimEvent.PAUSE || e.cancelled);
    }

    @Override
    public MessageStats stats() {
        return stats;
    }

    /** Fault injection (docs/simulation.md, "Faults"): delay spikes, link drops, clock skew, pauses, crashes. */
    public SimFaults faults() {
        return faults;
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
        push(network.afterLink(from, to, now + delayMicros * 1000), SimEvent.MSG, to, from, msg);
    }

    @Override
    public void close() {
        events.clear();
    }

    void send(NodeId from, NodeId to, Object msg) {
        stats.record(msg);
        long t = cores != null ? cores.arrival(from, to, msg, random) : network.modelArrival(now, random);
        if (faults.isCrashed(to)) {
            return;
        }
        push(network.sendFifo(from, to, faults.arrival(from, to, now, t)), SimEvent.MSG, to, from, msg);
    }

    SimEvent push(long time, int kind, NodeId node, NodeId from, Object payload) {
        SimEvent e = new SimEvent(time, seq++, kind, node, from, payload);
        events.add(e);
        return e;
    }

    SimNode node(NodeId id) {
        return nodes.get(id);
    }

    /** Puts a respawned node's new incarnation in place of the crashed one. */
    void replace(SimNode n) {
        nodes.put(n.id, n);
    }

    /** Every node spawned so far, in spawn order. */
    public List<NodeId> nodeIds() {
        return java.util.Collections.unmodifiableList(order);
    }

    private long nextPauseGap() {
        return now + 1000 + (long) (-Math.log(1 - random.nextDouble()) * model.pauseIntervalMicros()) * 1000;
    }

    private void step() {
        SimEvent e = events.poll();
        now = e.time;
        if (e.cancelled) {
            return;
        }
        steps++;
        if (e.kind == SimEvent.PAUSE) {
            if (!order.isEmpty()) {
                SimNode n = nodes.get(order.get(random.nextInt(order.size())));
                n.pausedUntil = Math.max(n.pausedUntil,
                        now + 1000 + (long) (random.nextDouble() * model.maxPauseMicros()) * 1000);
            }
            push(nextPauseGap(), SimEvent.PAUSE, null, null, null);
            return;
        }
        if (e.kind == SimEvent.EXTERNAL) {
            run(e, () -> ((Runnable) e.payload).run());
            return;
        }
        if (e.kind == SimEvent.JOB_DONE) {
            run(e, () -> cores.jobDone((CoreScheduler.Job) e.payload));
            return;
        }
        SimNode n = nodes.get(e.node);
        if (n == null) {
            return;
        }
        if (cores != null) {
            if (e.kind == SimEvent.DONE) {
                cores.done(n);
            } else {
                cores.arrive(n, e);
            }
            return;
        }
        if (n.pausedUntil > now) {
            // keep the original sequence number so that re-queued events stay in send order (FIFO per link)
            SimEvent again = new SimEvent(n.pausedUntil, e.seq, e.kind, e.node, e.from, e.payload);
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
    void handle(SimNode n, SimEvent e) {
        switch (e.kind) {
            case SimEvent.START -> run(e, () -> n.actor.onStart(n));
            case SimEvent.TIMER -> run(e, () -> ((Runnable) e.payload).run());
            default -> run(e, () -> {
                if (watch != null) {
                    watch.delivering(e.node, e.from, e.payload);
                }
                n.actor.onMessage(e.from, e.payload);
            });
        }
    }

    private void run(SimEvent e, Runnable r) {
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
