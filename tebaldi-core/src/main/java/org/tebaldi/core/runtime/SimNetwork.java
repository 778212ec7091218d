package org.tebaldi.core.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * The network of a {@link SimulatedRuntime} (docs/simulation.md): without hardware a seeded random one-way delay per
 * message, uniform in the model's [min, max] µs; with or without it, each link (sender → receiver) FIFO like a TCP
 * connection — a message never arrives before an earlier one on its link — and the count of messages lost in flight
 * when a connection dropped ({@link SimFaults#dropLink}). Virtual times in ns; single-threaded.
 */
final class SimNetwork {
    private final SimulatedRuntime.Model model;
    /** Per link: the arrival time, ns, of the last message sent on it. */
    private final Map<Long, Long> lastDelivery = new HashMap<>();
    private long lost;

    SimNetwork(SimulatedRuntime.Model model) {
        this.model = model;
    }

    /** When a message sent at {@code nowNs} arrives with the model's delays (one draw of {@code random}), ns. */
    long modelArrival(long nowNs, Random random) {
        long delay = model.minDelayMicros()
                + (model.maxDelayMicros() > model.minDelayMicros()
                ? (long) (random.nextDouble() * (model.maxDelayMicros() - model.minDelayMicros() + 1)) : 0);
        return nowNs + delay * 1000;
    }

    /** The arrival, ns, of a message on {@code from → to} due at {@code t}: not before the link's last one; recorded. */
    long sendFifo(NodeId from, NodeId to, long t) {
        long link = link(from, to);
        long at = Math.max(t, lastDelivery.getOrDefault(link, 0L));
        lastDelivery.put(link, at);
        return at;
    }

    /** {@code t}, or later if a message already in flight on {@code from → to} arrives later (not recorded), ns. */
    long afterLink(NodeId from, NodeId to, long t) {
        return Math.max(t, lastDelivery.getOrDefault(link(from, to), 0L));
    }

    /**
     * Loses the messages in flight at {@code nowNs} on the connection between {@code a} and {@code b}: those not
     * yet arrived (nor held at their node by a pause) are cancelled and counted.
     */
    void dropInFlight(Iterable<SimEvent> events, NodeId a, NodeId b, long nowNs) {
        for (SimEvent e : events) {
            if (e.kind == SimEvent.MSG && !e.held && !e.cancelled && e.time > nowNs && e.from != null
                    && SimFaults.sameLink(a, b, e.from, e.node)) {
                e.cancelled = true;
                lost++;
            }
        }
    }

    /** Messages lost so far because their connection dropped while they were in flight. */
    long lost() {
        return lost;
    }

    private static long link(NodeId from, NodeId to) {
        return ((long) from.hashCode() << 32) ^ (to.hashCode() & 0xffffffffL);
    }
}
