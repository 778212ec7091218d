package org.tebaldi.core.runtime;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.Hardware;
import org.tebaldi.core.runtime.cost.HandlerCost;
import org.tebaldi.core.runtime.cost.HandlerProfile;
import org.tebaldi.core.runtime.cost.HandlerUnits;

/**
 * The virtual cores of a {@link SimulatedRuntime} with {@link Hardware} (docs/simulation.md, "Cost model"). A node
 * with a waiting event joins its machine's ready queue (FIFO); a free core takes the first ready node and runs its
 * oldest event at once in simulation — a run takes the events waiting at its start, one after the other, as a mailbox
 * run of the embedded runtime does — and stays busy for each handler's cost — {@code (base + perUnit × units
 * [+ cold]) × overhead} (units: the message's, plus those the handler reported, {@link HandlerUnits}; a timer task
 * or message handler of a reported kind under its own key), plus the wake
 * cost when the core was idle, from the table (model mode; cold: the first handler of a run) or the handler's own
 * time measured in the simulation × {@code overhead} (measured mode).
 * When it ends, the node's sends leave and the core takes the next ready node. A node runs one event at a time (an
 * actor), so a busy node's later events wait in its own queue. A node's helper thread (a data server's store writer,
 * {@link SimulatedRuntime#background}) queues its work in the same ready queue as a {@link Job}: it takes a core of
 * the node's machine for its CPU time without holding the node. Simulation thread only.
 */
public final class CoreScheduler {
    /** Events a node handles in one run at most (the embedded runtime's mailbox batch). */
    static final int RUN = 128;

    private final SimulatedRuntime sim;
    private final Hardware hw;
    private final CostTable costs;
    private final double overhead;
    private final long wakeNanos;
    private final long tsFloorNanos;
    private final int[] free;
    private final long[] nicFree;
    private final long[] machineBusy;
    /** Ready nodes ({@link SimNode}) and helper-thread work ({@link Job}), FIFO per machine. */
    private final ArrayDeque<Object>[] ready;
    private final long[] backgroundBusy;
    /** Charges of message handlers, per receiving role, by message class. */
    private final Map<Class<?>, Charge>[] messageCharges;
    private final Map<Class<?>, Integer> bytesCache = new HashMap<>();
    /** Charges of timer tasks that reported no kind, per role. */
    private final Charge[] timerCharge;
    /** Charges of timer tasks and message handlers of a reported kind ({@link HandlerUnits#kind}), by key. */
    private final Map<String, Charge> kindCharges = new HashMap<>();

    @SuppressWarnings("unchecked")
    CoreScheduler(SimulatedRuntime sim, Hardware hw) {
        this.sim = sim;
        this.hw = hw;
        this.costs = hw.costs();
        this.overhead = costs.overhead();
        this.wakeNanos = Math.round(costs.wakeMicros() * 1000);
        this.tsFloorNanos = hw.tsFloorNanos();
        this.free = new int[hw.machines()];
        java.util.Arrays.fill(free, hw.coresPerMachine());
        this.nicFree = new long[hw.machines()];
        this.machineBusy = new long[hw.machines()];
        this.backgroundBusy = new long[hw.machines()];
        this.ready = new ArrayDeque[hw.machines()];
        for (int i = 0; i < ready.length; i++) {
            ready[i] = new ArrayDeque<>();
        }
        Role[] roles = Role.values();
        this.messageCharges = new Map[roles.length];
        this.timerCharge = new Charge[roles.length];
        for (Role r : roles) {
            messageCharges[r.ordinal()] = new HashMap<>();
            String timer = HandlerProfile.timerKey(r);
            timerCharge[r.ordinal()] = new Charge(timer, costs.cost(timer));
        }
    }

    int machineOf(NodeId id) {
        return hw.machineOf(id);
    }

    /** An event for {@code n} arrived (now). */
    void arrive(SimNode n, SimEvent e) {
        n.pending.add(e);
        if (!n.running && !n.ready) {
            n.ready = true;
            ready[n.machine].add(n);
            dispatch(n.machine, 0);
        }
    }

    /**
     * {@code n}'s handler ended (now): its sends leave; the node's run goes on with its next event on the same core
     * (warm), or the core frees and a node with events left queues again at the tail, its next run starting cold.
     */
    void done(SimNode n) {
        for (Object[] s : n.outbox) {
            sim.send(n.id, (NodeId) s[0], s[1]);
        }
        n.outbox.clear();
        if (n.runLeft > 0) {
            start(n, false, false);
            return;
        }
        n.running = false;
        free[n.machine]++;
        if (!n.pending.isEmpty()) {
            n.ready = true;
            ready[n.machine].add(n);
        }
        dispatch(n.machine, 1);
    }

    /**
     * Starts ready nodes on the machine's free cores. Like a mailbox run of the embedded runtime, a node's run takes
     * the events waiting when it starts (at most {@value #RUN} of them); the first is cold. The first {@code busy}
     * cores taken were just freed by a handler; any other was idle and pays the table's wake cost.
     */
    private void dispatch(int m, int busy) {
        while (free[m] > 0 && !ready[m].isEmpty()) {
            Object next = ready[m].poll();
            if (next instanceof Job j) {
                free[m]--;
                long cost = j.nanos + (busy-- <= 0 ? wakeNanos : 0);
                machineBusy[m] += cost;
                backgroundBusy[m] += cost;
                sim.push(sim.now + cost, SimEvent.JOB_DONE, null, null, j);
                continue;
            }
            SimNode n = (SimNode) next;
            n.ready = false;
            free[m]--;
            n.running = true;
            n.runLeft = Math.min(n.pending.size(), RUN);
            start(n, true, busy-- <= 0);
        }
    }

    /** Work of a node's helper thread: {@code nanos} of CPU on {@code machine}, then {@code done} (outside a node). */
    record Job(int machine, long nanos, Runnable done) {
    }

    /** Queues helper-thread work on {@code machine} ({@link SimulatedRuntime#background}). */
    void background(int machine, long nanos, Runnable done) {
        ready[machine].add(new Job(machine, nanos, done));
        dispatch(machine, 0);
    }

    /** A job's CPU time ended (now): its {@code done} runs, then its core frees (warm for a job it queued). */
    void jobDone(Job j) {
        j.done().run();
        free[j.machine()]++;
        dispatch(j.machine(), 1);
    }

    private void start(SimNode n, boolean cold, boolean wake) {
        SimEvent e = n.pending.poll();
        n.runLeft--;
        HandlerUnits.take();
        HandlerUnits.takeKind();
        long t0 = hw.measured() ? System.nanoTime() : 0;
        sim.handle(n, e);
        int extra = HandlerUnits.take();
        String kind = HandlerUnits.takeKind();
        boolean nodeStart = e.kind == SimEvent.START; // costs nothing in the model
        Charge c = nodeStart ? null : charge(n.id.role(), e, kind);
        int units = nodeStart ? 0 : e.kind == SimEvent.TIMER ? extra : HandlerProfile.units(e.payload) + extra;
        long model = nodeStart ? 0 : c.cost().nanos(units, cold);
        long cost = Math.round((hw.measured() ? System.nanoTime() - t0 : model) * overhead)
                + (wake && !nodeStart ? wakeNanos : 0);
        if (n.id.role() == Role.TS && !nodeStart) {
            cost = Math.max(cost, tsFloorNanos); // the service machine's bound (docs/simulation.md, "Cost model")
        }
        n.busyNanos += cost;
        if (!nodeStart) {
            n.busyByKey.computeIfAbsent(c.key(), x -> new long[1])[0] += cost;
        }
        machineBusy[n.machine] += cost;
        sim.push(sim.now + cost, SimEvent.DONE, n.id, n.id, null);
    }

    /** A handler key (docs/simulation.md, "Cost model": e.g. {@code ds ExecRequest}) and the table's cost for it. */
    private record Charge(String key, HandlerCost cost) {
    }

    /**
     * What a timer task or message handler is charged under: its role's timer key, its message class's key, or — when
     * it reported a kind ({@link HandlerUnits#kind}) — its own key; a timer kind the table lacks costs the role's mean
     * ({@link CostTable#fallback}) — but {@value HandlerUnits#VERSION_GC}, split off the role's timer key, that key, as
     * before the split — and a message kind the message's own ({@link CostTable#cost(String, String)}).
     */
    private Charge charge(Role role, SimEvent e, String kind) {
        if (e.kind == SimEvent.TIMER) {
            if (kind == null) {
                return timerCharge[role.ordinal()];
            }
            return kindCharges.computeIfAbsent(HandlerProfile.timerKey(role, kind), k -> new Charge(k,
                    costs.handlers().containsKey(k) || !HandlerUnits.VERSION_GC.equals(kind) ? costs.cost(k)
                            : costs.cost(HandlerProfile.timerKey(role))));
        }
        Object msg = e.payload;
        if (kind != null) {
            return kindCharges.computeIfAbsent(HandlerProfile.key(role, msg, kind),
                    k -> new Charge(k, costs.cost(HandlerProfile.key(role, msg), kind)));
        }
        Class<?> k = msg instanceof Envelope env && env.payload() != null ? env.payload().getClass() : msg.getClass();
        return messageCharges[role.ordinal()].computeIfAbsent(k, x -> {
            String key = HandlerProfile.key(role, msg);
            return new Charge(key, costs.cost(key));
        });
    }

    /**
     * Virtual CPU time node {@code id}'s handlers used so far, ns, by handler key (its current incarnation; empty
     * for an unknown node) — where a busy node's time goes (docs/simulation.md, "Where a node's time goes").
     */
    public Map<String, Long> busyByKey(NodeId id) {
        SimNode n = sim.node(id);
        Map<String, Long> out = new TreeMap<>();
        if (n != null) {
            n.busyByKey.forEach((k, v) -> out.put(k, v[0]));
        }
        return out;
    }

    /** When a message sent now from {@code from} to {@code to} arrives, ns (the interface queue advances). */
    long arrival(NodeId from, NodeId to, Object msg, Random r) {
        SimNode a = sim.node(from);
        SimNode b = sim.node(to);
        int fm = a != null ? a.machine : hw.machineOf(from);
        int tm = b != null ? b.machine : hw.machineOf(to);
        if (fm == tm) {
            return sim.now + hw.localLatencyNanos();
        }
        Class<?> k = msg instanceof Envelope env && env.payload() != null ? env.payload().getClass() : msg.getClass();
        Integer bytes = bytesCache.get(k);
        if (bytes == null) {
            bytes = costs.bytes(Envelope.name(msg));
            bytesCache.put(k, bytes);
        }
        long start = Math.max(sim.now, nicFree[fm]);
        nicFree[fm] = start + hw.wireNanos(bytes);
        return nicFree[fm] + hw.remoteLatencyNanos(fm, tm, r);
    }

    /** Virtual CPU time each node's handlers used so far, ns, by node. */
    public Map<NodeId, Long> busyNanos() {
        Map<NodeId, Long> out = new TreeMap<>();
        for (NodeId id : sim.nodeIds()) {
            out.put(id, sim.node(id).busyNanos);
        }
        return out;
    }

    /** Virtual CPU time used on each machine so far, ns (nodes' handlers and helper threads). */
    public long[] machineBusyNanos() {
        return machineBusy.clone();
    }

    /** Virtual CPU time helper threads ({@link SimulatedRuntime#background}) used on each machine so far, ns. */
    public long[] backgroundBusyNanos() {
        return backgroundBusy.clone();
    }


    /** The hardware simulated. */
    public Hardware hardware() {
        return hw;
    }
}
