package org.tebaldi.bench.experiment;

import java.nio.file.Path;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.Hardware;
import org.tebaldi.core.tree.CcTree;

/**
 * The {@code cluster.simulation:} section of a {@code cluster.mode: simulated} experiment (docs/simulation.md): the
 * cluster's shape and network, and the calibrated cost table. Coordinators (each with its client endpoint) and data
 * servers are dealt to the machines round-robin (node {@code i} on machine {@code i mod machines}), so that
 * neighbouring partitions — TPC-C's ten warehouses on data servers 1–10 — land on different machines; the mechanisms' services (timestamp service, batch
 * manager) run on one more machine when {@code serviceMachine} is set (the dissertation's setup, §4.6), else on
 * machine 0.
 *
 * @param machines           machines hosting coordinators and data servers (≥ 1)
 * @param coresPerMachine    virtual cores per machine (≥ 1)
 * @param latencyMinMicros   one-way latency between machines, smallest, µs
 * @param latencyMaxMicros   one-way latency between machines, largest, µs (uniform in between)
 * @param localLatencyMicros one-way latency between two nodes of one machine, µs
 * @param bandwidthGbps      each machine's network interface, Gbit/s
 * @param costsFile          the cost table's file, as resolved
 * @param costs              the cost table, read when the experiment was loaded
 * @param costMode           {@code model} (deterministic) or {@code measured}
 * @param serviceMachine     whether services get a machine of their own
 * @param embedded           true when no latency was given: the run models this machine's embedded runtime, whose
 *                           emulated network delivers {@code cluster.networkDelay} plus the lateness the cost table
 *                           measured ({@link CostTable#lateMicros}) after a message was sent
 * @param groups             racks or data centres the machines fall into (machine {@code m} in group
 *                           {@code m mod groups}; 1: a flat network)
 * @param groupLatencyMinMicros extra one-way latency between machines of different groups, smallest, µs
 * @param groupLatencyMaxMicros the same, largest, µs
 * @param tsOpsPerSecond     requests per second the timestamp service's machine can serve at most (0: no bound
 *                           beyond its calibrated handler costs)
 */
public record SimulationSpec(int machines, int coresPerMachine, long latencyMinMicros, long latencyMaxMicros,
                             long localLatencyMicros, double bandwidthGbps, Path costsFile, CostTable costs,
                             String costMode, boolean serviceMachine, boolean embedded, int groups,
                             long groupLatencyMinMicros, long groupLatencyMaxMicros, double tsOpsPerSecond) {
    /** Machines in all, the service machine included. */
    public int allMachines() {
        return machines + (serviceMachine ? 1 : 0);
    }

    /** The machine of {@code node} in a cluster of {@code tcs} coordinators and {@code dss} data servers. */
    public int machineOf(NodeId node, int tcs, int dss) {
        return switch (node.role()) {
            case TC, CLIENT, DS -> node.index() % machines;
            default -> serviceMachine ? machines : 0;
        };
    }

    /**
     * The simulated hardware for a cluster of {@code tcs} coordinators and {@code dss} data servers running
     * {@code workload} (its calibrated handler costs where the table has them, {@link CostTable#forWorkload}).
     */
    public Hardware hardware(int tcs, int dss, String workload) {
        return hardware(tcs, dss, workload, null, false);
    }

    /**
     * As {@link #hardware(int, int, String)}, charging {@link #costsFor costsFor(workload, tree, durable)}.
     */
    public Hardware hardware(int tcs, int dss, String workload, CcTree tree, boolean durable) {
        CostTable t = costsFor(workload, tree, durable);
        double late = embedded ? t.lateMicros() : 0;
        return new Hardware(allMachines(), coresPerMachine, n -> machineOf(n, tcs, dss), latencyMinMicros + late,
                latencyMaxMicros + late, localLatencyMicros + late, bandwidthGbps, t, costMode.equals("measured"),
                groups, groupLatencyMinMicros, groupLatencyMaxMicros, tsOpsPerSecond > 0 ? 1e6 / tsOpsPerSecond : 0);
    }

    /**
     * The costs a run of {@code workload} under {@code tree} charges: the table's section for that tree where it has
     * one ({@link CostTable#forRun}; docs/simulation.md, "Costs by tree"), else the workload's costs; null
     * {@code tree}: the workload's. With {@code durable}, the logging handlers cost what the table measured with
     * durability on ({@link CostTable#durable}).
     */
    public CostTable costsFor(String workload, CcTree tree, boolean durable) {
        CostTable t = tree == null ? costs.forWorkload(workload)
                : costs.forRun(workload, tree.canonical(), tree.shape());
        return durable ? t.durable() : t;
    }

    /** Nodes a machine hosts (for the report), e.g. {@code 10 tc + 10 client + 10 ds}. */
    public String describeMachine(int machine, int tcs, int dss) {
        int t = 0;
        int d = 0;
        for (int i = 0; i < tcs; i++) {
            t += machineOf(new NodeId(Role.TC, i), tcs, dss) == machine ? 1 : 0;
        }
        for (int i = 0; i < dss; i++) {
            d += machineOf(new NodeId(Role.DS, i), tcs, dss) == machine ? 1 : 0;
        }
        return t + " tc + " + t + " client + " + d + " ds";
    }
}
