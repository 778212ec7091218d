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
 * two nodes of one machine, which skip the interface.
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
 */
public record Hardware(int machines, int coresPerMachine, ToIntFunction<NodeId> placement, double latencyMinMicros,
                       double latencyMaxMicros, double localLatencyMicros, double bandwidthGbps, CostTable costs,
                       boolean measured) {
    /** @throws IllegalArgumentException if a count, latency or the bandwidth is out of range */
    public Hardware {
        if (machines < 1 || coresPerMachine < 1 || latencyMinMicros < 0 || latencyMaxMicros < latencyMinMicros
                || localLatencyMicros < 0 || !(bandwidthGbps > 0) || costs == null) {
            throw new IllegalArgumentException("bad hardware: " + machines + " machines x " + coresPerMachine
                    + " cores, latency " + latencyMinMicros + "-" + latencyMaxMicros + " us, local "
                    + localLatencyMicros + " us, " + bandwidthGbps + " Gbit/s");
        }
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

    /** The latency between two nodes of one machine, ns. */
    public long localLatencyNanos() {
        return Math.round(localLatencyMicros * 1000);
    }

    /** Time to put {@code bytes} on the wire, ns. */
    public long wireNanos(int bytes) {
        return Math.round(bytes * 8 / bandwidthGbps);
    }
}
