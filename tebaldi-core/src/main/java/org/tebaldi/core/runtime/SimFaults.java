package org.tebaldi.core.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Fault injection of a {@link SimulatedRuntime} ({@link SimulatedRuntime#faults()}; docs/simulation.md, "Faults"):
 * delay spikes on links, connection drops, clock skew, node pauses, crashes and restarts. Times in the API are
 * virtual µs; the state (kept in virtual ns) is what the runtime consults when a message is sent, a clock is read or
 * a timer is set. Everything is deterministic: faults draw nothing from the seed. Single-threaded, like the runtime.
 */
public final class SimFaults {
    /** Messages sent from {@code from} to {@code to} (null = any) in [{@code startNs}, {@code endNs}) take longer. */
    private record Spike(NodeId from, NodeId to, long startNs, long endNs, long extraNs) {
        boolean matches(NodeId f, NodeId t, long nowNs) {
            return nowNs >= startNs && nowNs < endNs && (from == null || from.equals(f)) && (to == null || to.equals(t));
        }
    }

    /** The connection between {@code a} and {@code b} (both directions) is down in [{@code startNs}, {@code endNs}). */
    private record Drop(NodeId a, NodeId b, long startNs, long endNs) {
        boolean matches(NodeId f, NodeId t) {
            return sameLink(a, b, f, t);
        }
    }

    /**
     * A skewed clock: from virtual time {@code sinceNs} on, the node reads {@code offsetNs + t + (t - sinceNs)·ppm/10⁶}.
     */
    private record Skew(long sinceNs, long offsetNs, double ppm) {
    }

    private final List<Spike> spikes = new ArrayList<>();
    private final List<Drop> drops = new ArrayList<>();
    private final Map<NodeId, Skew> skews = new HashMap<>();
    private final Set<NodeId> crashed = new HashSet<>();
    /** Injected so far, by kind (delay-spike, drop-link, clock-skew, pause, crash, respawn). */
    private final Map<String, Integer> counts = new TreeMap<>();
    private final SimulatedRuntime sim;

    SimFaults(SimulatedRuntime sim) {
        this.sim = sim;
    }

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
        spike(from, to, fromMicros * 1000, untilMicros * 1000, extraMicros * 1000);
        count("delay-spike");
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
        drop(a, b, fromMicros * 1000, untilMicros * 1000);
        count("drop-link");
        sim.at(fromMicros, () -> sim.network.dropInFlight(sim.events, a, b, sim.now));
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
        skew(n, sim.now, offsetMicros * 1000, driftPpm);
        count("clock-skew");
    }

    /**
     * Pauses node {@code n} during [{@code fromMicros}, {@code untilMicros}) (a GC pause or SIGSTOP): nothing of it
     * runs — messages and timers that come due wait, in order, and run when it resumes; messages keep arriving.
     *
     * @throws IllegalStateException with hardware costs (pauses are not modelled there)
     */
    public void pause(NodeId n, long fromMicros, long untilMicros) {
        if (sim.cores() != null) {
            throw new IllegalStateException("node pauses are not modelled together with hardware costs");
        }
        count("pause");
        sim.at(fromMicros, () -> {
            SimNode s = sim.node(n);
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
        if (sim.cores() != null) {
            throw new IllegalStateException("node crashes are not modelled together with hardware costs");
        }
        SimNode s = sim.node(n);
        if (s == null || s.dead) {
            throw new IllegalArgumentException("cannot crash " + n + ": " + (s == null ? "no such node" : "crashed already"));
        }
        s.dead = true;
        markCrashed(n, true);
        count("crash");
        for (SimEvent e : sim.events) {
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
        SimNode old = sim.node(n);
        if (old == null || !old.dead) {
            throw new IllegalArgumentException("cannot respawn " + n + ": it " + (old == null ? "does not exist"
                    : "has not crashed"));
        }
        sim.replace(new SimNode(sim, n, actor, old.incarnation + 1));
        markCrashed(n, false);
        count("respawn");
        sim.push(sim.now, SimEvent.START, n, n, null);
    }

    /** Whether node {@code n} has crashed and not been respawned. */
    public boolean crashed(NodeId n) {
        return crashed.contains(n);
    }

    /** Faults injected so far, by kind (delay-spike, drop-link, clock-skew, pause, crash, respawn). */
    public Map<String, Integer> counts() {
        return Collections.unmodifiableMap(counts);
    }

    /** Messages lost so far because their connection dropped while they were in flight. */
    public long lostMessages() {
        return sim.network.lost();
    }

    private void count(String kind) {
        counts.merge(kind, 1, Integer::sum);
    }

    private void spike(NodeId from, NodeId to, long startNs, long endNs, long extraNs) {
        spikes.add(new Spike(from, to, startNs, endNs, extraNs));
    }

    private void drop(NodeId a, NodeId b, long startNs, long endNs) {
        drops.add(new Drop(a, b, startNs, endNs));
    }

    /**
     * When a message sent at {@code nowNs} that would arrive at {@code arrivalNs} arrives with the faults: later by
     * every active spike on its link; if its connection is down, it waits for the reconnection (the end of the
     * drop) and then crosses with its own delay.
     */
    long arrival(NodeId from, NodeId to, long nowNs, long arrivalNs) {
        long t = arrivalNs;
        for (Spike s : spikes) {
            if (s.matches(from, to, nowNs)) {
                t += s.extraNs();
            }
        }
        for (Drop d : drops) {
            if (d.matches(from, to) && nowNs >= d.startNs() && nowNs < d.endNs()) {
                t = Math.max(t, d.endNs() + (t - nowNs));
            }
        }
        return t;
    }

    /** Whether a message from {@code from} to {@code to} uses the connection between {@code a} and {@code b}. */
    static boolean sameLink(NodeId a, NodeId b, NodeId from, NodeId to) {
        return a.equals(from) && b.equals(to) || a.equals(to) && b.equals(from);
    }

    private void skew(NodeId n, long nowNs, long offsetNs, double ppm) {
        if (ppm <= -1_000_000) {
            throw new IllegalArgumentException("clock drift must be above -10⁶ ppm (the clock must advance), got " + ppm);
        }
        skews.put(n, new Skew(nowNs, offsetNs, ppm));
    }

    /** Node {@code n}'s clock reading at virtual time {@code nowNs}, ns. */
    long clock(NodeId n, long nowNs) {
        Skew s = skews.get(n);
        if (s == null) {
            return nowNs;
        }
        return nowNs + s.offsetNs() + (long) ((nowNs - s.sinceNs()) * s.ppm() / 1e6);
    }

    /** The virtual delay, ns, after which {@code n}'s clock has advanced {@code localNs}: localNs / (1 + ppm/10⁶). */
    long timerDelay(NodeId n, long localNs) {
        Skew s = skews.get(n);
        if (s == null || s.ppm() == 0) {
            return localNs;
        }
        return (long) Math.ceil(localNs / (1 + s.ppm() / 1e6));
    }

    private void markCrashed(NodeId n, boolean down) {
        if (down) {
            crashed.add(n);
        } else {
            crashed.remove(n);
        }
    }

    boolean isCrashed(NodeId n) {
        return crashed.contains(n);
    }
}
