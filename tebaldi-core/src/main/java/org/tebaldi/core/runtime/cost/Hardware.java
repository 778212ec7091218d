package org.tebaldi.core.runtime.cost;

import java.util.Random;
import java.util.function.ToIntFunction;
import org.tebaldi.core.runtime.NodeId;

/**
 * The simulated cluster's hardware (docs/simulation.md, "Cost model"): machines with virtual cores, where each
 * node runs, the network between them, and what a handler costs. A handler holds one core of its node's
 * machine for its cost (queueing when every core is busy); its messages leave when it ends, cross the sender's
 * network interface at {@code bandwidthGbps} (one message at a time per machine) and arrive after a one-way latency
 * drawn uniformly from [{@code latencyMinMicros}, {@code latencyMaxMicros}] — or {@code localLatencyMicros} between
 * two nodes of one machine, which skip the interface. Machines fall into {@code groups} (racks or data centres;
 * machine {@code m} in group {@code m mod groups}): a message between machines of different groups takes
 * {@code groupLatency} more, drawn uniformly from [{@code groupLatencyMinMicros}, {@code groupLatencyMaxMicros}]
 * (COCO's wide-area setting, Lu et al. VLDB 2021 §7.5: round trips of 11.3–60.9 ms between three regions). The
 * timestamp service's handlers each cost at least {@code tsFloorMicros} (its machine's bound: the DST paper's
 * oracle served at most 1.26 M timestamps/s on a 24-core machine with 10GbE, Wei et al. NSDI 2021 §2.3, Fig. 6a);
 * see docs/simulation.md, "Cost model".
 *
 * @param machines           number of machines (≥ 1)
 * @param coresPerMachine    virtual cores of each machine (≥ 1)
 * @param placement          the machine index of each node, in [0, machines)
 * @param latencyMinMicros   smallest one-way latency between machines, µs
 * @param latencyMaxMicros   largest one-way latency between machines, µs
 * @param localLatencyMicros one-way latency between nodes of one machine, µs
 * @param bandwidthGbps      each machine's network interface, Gbit/s (> 0)
 * @param costs              the calibrated cost table
 * @param measured           true: charge each handler its own time measured in the simulation × the table's
 *                           {@code overhead} (not deterministic); false: the table's model costs (deterministic)
 * @param groups                number of machine groups (≥ 1; 1: a flat network)
 * @param groupLatencyMinMicros smallest extra one-way latency between machines of different groups, µs
 * @param groupLatencyMaxMicros largest extra one-way latency between groups, µs
 * @param tsFloorMicros         least cost of one timestamp-service handler, µs (0: its calibrated cost only)
 */
public record Hardware(int machines, int coresPerMachine, ToIntFunction<NodeId> placement, double latencyMinMicros,
                       double latencyMaxMicros, double localLatencyMicros, double bandwidthGbps, CostTable costs,
                       boolean measured, int groups, double groupLatencyMinMicros, double groupLatencyMaxMicros,
                       double tsFloorMicros) {
    /** @throws IllegalArgumentException if a count, latency or the bandwidth is out of range */
    public Hardware {
        if (machines < 1 || coresPerMachine < 1 || latencyMinMicros < 0 || latencyMaxMicros < latencyMinMicros
                || localLatencyMicros < 0 || !(bandwidthGbps > 0) || costs == null || groups < 1
                || groupLatencyMinMicros < 0 || groupLatencyMaxMicros < groupLatencyMinMicros
                || !(tsFloorMicros >= 0)) {
            throw new IllegalArgumentException("bad hardware: " + machines + " machines x " + coresPerMachine
                    + " cores, latency " + latencyMinMicros + "-" + latencyMaxMicros + " us, local "
                    + localLatencyMicros + " us, " + bandwidthGbps + " Gbit/s, " + groups + " groups "
                    + groupLatencyMinMicros + "-" + groupLatencyMaxMicros + " us apart, ts floor " + tsFloorMicros
                    + " us");
        }
    }

    /** A flat network (one group) and the timestamp service at its calibrated cost. */
    public Hardware(int machines, int coresPerMachine, ToIntFunction<NodeId> placement, double latencyMinMicros,
                    double latencyMaxMicros, double localLatencyMicros, double bandwidthGbps, CostTable costs,
                    boolean measured) {
        this(machines, coresPerMachine, placement, latencyMinMicros, latencyMaxMicros, localLatencyMicros,
                bandwidthGbps, costs, measured, 1, 0, 0, 0);
    }

    /** The machine of {@code node}. @throws IllegalArgumentException if the placement is out of range */
    public int machineOf(NodeId node) {
        int m = placement.applyAsInt(node);
        if (m < 0 || m >= machines) {
            throw new IllegalArgumentException("node " + node + " placed on machine " + m + " of " + machines);
        }
        return m;
    }

    /** A one-way latency between two different machines, ns. */
    public long remoteLatencyNanos(Random r) {
        double us = latencyMinMicros + r.nextDouble() * (latencyMaxMicros - latencyMinMicros);
        return Math.round(us * 1000);
    }

    /**
     * A one-way latency from machine {@code from} to machine {@code to} (different machines), ns: the network's, plus
     * the groups' when they lie in different groups.
     */
    public long remoteLatencyNanos(int from, int to, Random r) {
        long ns = remoteLatencyNanos(r);
        if (groups > 1 && from % groups != to % groups) {
            double us = groupLatencyMinMicros + r.nextDouble() * (groupLatencyMaxMicros - groupLatencyMinMicros);
            ns += Math.round(us * 1000);
        }
        return ns;
    }

    /** The least cost of one timestamp-service handler, ns. */
    public long tsFloorNanos() {
        return Math.round(tsFloorMicros * 1000);
    }

    /** The latency between two nodes of one machine, ns. */
    public long localLatencyNanos() {
        return Math.round(localLatencyMicros * 1000);
    }

    /** Time to put {@code bytes} on the wire, ns. */
    public long wireNanos(int bytes) {
        return Math.round(bytes * 8 / bandwidthGbps);
    }
}
