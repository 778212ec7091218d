package org.tebaldi.core.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One incarnation of a node in a {@link SimulatedRuntime}: its actor, its seeded random stream, and the context the
 * actor sends and schedules through. Sends go to the runtime's network (in hardware mode, collected while the
 * handler runs and sent when its CPU time ends); timers and the clock follow the node's possibly skewed clock
 * ({@link SimFaults#clockSkew}). A crashed incarnation sends and schedules nothing more.
 */
final class SimNode implements NodeContext {
    final NodeId id;
    final Actor actor;
    final Random random;
    /** 0 for the first actor under this id, then +1 per {@link SimFaults#respawn}. */
    final int incarnation;
    /** Crashed: its context sends and schedules nothing more. */
    boolean dead;
    /** Virtual time, ns, until which it is paused. */
    long pausedUntil;
    /** Hardware mode: the machine, events waiting for this node, sends of the running handler, busy time (ns). */
    int machine;
    final ArrayDeque<SimEvent> pending = new ArrayDeque<>();
    final List<Object[]> outbox = new ArrayList<>();
    boolean running;
    boolean ready;
    /** Events left in its current run (hardware mode). */
    int runLeft;
    long busyNanos;
    /** Hardware mode: {@link #busyNanos} by handler key ({@link CoreScheduler#busyByKey}), ns. */
    final java.util.HashMap<String, long[]> busyByKey = new java.util.HashMap<>();
    private final SimulatedRuntime sim;

    SimNode(SimulatedRuntime sim, NodeId id, Actor actor, int incarnation) {
        this.sim = sim;
        this.id = id;
        this.actor = actor;
        this.incarnation = incarnation;
        this.random = new Random(sim.seed() * 1_000_003L + id.hashCode() + 7919L * incarnation);
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
            sim.send(id, to, msg);
        }
    }

    @Override
    public Cancellable schedule(long delayMicros, Runnable task) {
        if (dead) {
            return () -> { };
        }
        return sim.push(sim.now + sim.faults.timerDelay(id, Math.max(0, delayMicros) * 1000), SimEvent.TIMER, id, id,
                task);
    }

    /** This node's clock: virtual time, skewed by {@link SimFaults#clockSkew}. */
    @Override
    public long nowMicros() {
        return sim.faults.clock(id, sim.now) / 1000;
    }

    @Override
    public Random random() {
        return random;
    }
}
