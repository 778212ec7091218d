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

/**
 * The virtual cores of a {@link SimulatedRuntime} with {@link Hardware} (docs/simulation.md, "Cost model"). A node
 * with a waiting event joins its machine's ready queue (FIFO); a free core takes the first ready node and runs its
 * oldest event at once in simulation, then stays busy for the handler's cost — {@code (base + perUnit × units
 * [+ cold]) × overhead} from the table (model mode; cold: the node was idle before this handler, as the first
 * handler of a mailbox run in the embedded runtime) or the handler's own time measured in the simulation ×
 * {@code overhead} (measured mode).
 * When it ends, the node's sends leave and the core takes the next ready node. A node runs one event at a time (an
 * actor), so a busy node's later events wait in its own queue. Simulation thread only.
 */
public final class CoreScheduler {
    private final SimulatedRuntime sim;
    private final Hardware hw;
    private final CostTable costs;
    private final double overhead;
    private final int[] free;
    private final long[] nicFree;
    private final long[] machineBusy;
    private final ArrayDeque<SimulatedRuntime.SimNode>[] ready;
    private final Map<Class<?>, HandlerCost>[] handlerCache;
    private final Map<Class<?>, Integer> bytesCache = new HashMap<>();
    private final HandlerCost[] timerCost;
    private long handled;

    @SuppressWarnings("unchecked")
    CoreScheduler(SimulatedRuntime sim, Hardware hw) {
        this.sim = sim;
        this.hw = hw;
        this.costs = hw.costs();
        this.overhead = costs.overhead();
        this.free = new int[hw.machines()];
        java.util.Arrays.fill(free, hw.coresPerMachine());
        this.nicFree = new long[hw.machines()];
        this.machineBusy = new long[hw.machines()];
        this.ready = new ArrayDeque[hw.machines()];
        for (int i = 0; i < ready.length; i++) {
            ready[i] = new ArrayDeque<>();
        }
        Role[] roles = Role.values();
        this.handlerCache = new Map[roles.length];
        this.timerCost = new HandlerCost[roles.length];
        for (Role r : roles) {
            handlerCache[r.ordinal()] = new HashMap<>();
            timerCost[r.ordinal()] = costs.cost(HandlerProfile.timerKey(r));
        }
    }

    int machineOf(NodeId id) {
        return hw.machineOf(id);
    }

    /** An event for {@code n} arrived (now). */
    void arrive(SimulatedRuntime.SimNode n, SimulatedRuntime.Event e) {
        n.pending.add(e);
        if (!n.running && !n.ready) {
            n.ready = true;
            n.warm = false;
            ready[n.machine].add(n);
            dispatch(n.machine);
        }
    }

    /** {@code n}'s handler ended (now): its sends leave, its core frees. */
    void done(SimulatedRuntime.SimNode n) {
        n.running = false;
        free[n.machine]++;
        for (Object[] s : n.outbox) {
            sim.send(n.id, (NodeId) s[0], s[1]);
        }
        n.outbox.clear();
        if (!n.pending.isEmpty()) {
            n.ready = true;
            n.warm = true;
            ready[n.machine].add(n);
        }
        dispatch(n.machine);
    }

    /** Starts ready nodes on the machine's free cores. */
    private void dispatch(int m) {
        while (free[m] > 0 && !ready[m].isEmpty()) {
            SimulatedRuntime.SimNode n = ready[m].poll();
            n.ready = false;
            SimulatedRuntime.Event e = n.pending.poll();
            free[m]--;
            n.running = true;
            boolean cold = !n.warm;
            long t0 = hw.measured() ? System.nanoTime() : 0;
            sim.handle(n, e);
            long cost = Math.round((hw.measured() ? System.nanoTime() - t0 : modelCost(n.id.role(), e, cold))
                    * overhead);
            handled++;
            n.busyNanos += cost;
            machineBusy[m] += cost;
            sim.push(sim.now + cost, SimulatedRuntime.DONE, n.id, n.id, null);
        }
    }

    private long modelCost(Role role, SimulatedRuntime.Event e, boolean cold) {
        if (e.kind == SimulatedRuntime.START) {
            return 0;
        }
        if (e.kind == SimulatedRuntime.TIMER) {
            return timerCost[role.ordinal()].nanos(0, cold);
        }
        Object msg = e.payload;
        Map<Class<?>, HandlerCost> cache = handlerCache[role.ordinal()];
        Class<?> k = msg instanceof Envelope env && env.payload() != null ? env.payload().getClass() : msg.getClass();
        HandlerCost c = cache.get(k);
        if (c == null) {
            c = costs.cost(HandlerProfile.key(role, msg));
            cache.put(k, c);
        }
        return c.nanos(HandlerProfile.units(msg), cold);
    }

    /** When a message sent now from {@code from} to {@code to} arrives, ns (the interface queue advances). */
    long arrival(NodeId from, NodeId to, Object msg, Random r) {
        SimulatedRuntime.SimNode a = sim.node(from);
        SimulatedRuntime.SimNode b = sim.node(to);
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
        return nicFree[fm] + hw.remoteLatencyNanos(r);
    }

    /** Virtual CPU time each node's handlers used so far, ns, by node. */
    public Map<NodeId, Long> busyNanos() {
        Map<NodeId, Long> out = new TreeMap<>();
        for (NodeId id : sim.nodeIds()) {
            out.put(id, sim.node(id).busyNanos);
        }
        return out;
    }

    /** Virtual CPU time used on each machine so far, ns. */
    public long[] machineBusyNanos() {
        return machineBusy.clone();
    }

    /** Handlers run so far. */
    public long handled() {
        return handled;
    }

    /** The hardware simulated. */
    public Hardware hardware() {
        return hw;
    }
}
