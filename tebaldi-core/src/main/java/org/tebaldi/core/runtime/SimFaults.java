package org.tebaldi.core.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The injected faults of a {@link SimulatedRuntime} (its fault API; docs/simulation.md, "Faults"): delay spikes on
 * links, connection drops, clock skew, and which nodes crashed. Pure state and arithmetic, in virtual ns; the
 * runtime consults it when a message is sent, a clock is read or a timer is set. Single-threaded, like the runtime.
 */
final class SimFaults {
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
    private final Map<String, Integer> counts = new java.util.TreeMap<>();

    void count(String kind) {
        counts.merge(kind, 1, Integer::sum);
    }

    Map<String, Integer> counts() {
        return java.util.Collections.unmodifiableMap(counts);
    }

    void spike(NodeId from, NodeId to, long startNs, long endNs, long extraNs) {
        spikes.add(new Spike(from, to, startNs, endNs, extraNs));
    }

    void drop(NodeId a, NodeId b, long startNs, long endNs) {
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

    void skew(NodeId n, long nowNs, long offsetNs, double ppm) {
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

    void crashed(NodeId n, boolean down) {
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
