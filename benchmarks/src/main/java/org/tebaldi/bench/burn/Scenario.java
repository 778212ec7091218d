package org.tebaldi.bench.burn;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one burn run needs, drawn from a seed by {@link ScenarioDraw} and written to / read from a small JSON
 * file by {@link ScenarioFiles}; {@link BurnRun} runs it. Equal scenarios run identically.
 *
 * @param seed          seed of the simulated runtime and of the clients' choices
 * @param workload      a {@link BurnWorkload} label, e.g. {@code bank}
 * @param tree          the CC tree in the tree file format (YAML text)
 * @param coordinators  transaction coordinators (≥ 1)
 * @param dataServers   data servers (≥ 1)
 * @param clients       closed-loop clients (≥ 1)
 * @param txnsPerClient transactions each client commits (≥ 1)
 * @param durable       durability on in-memory logs (epochs of 3 ms, asynchronous), needed by
 *                      {@link FaultKind#CLUSTER_CRASH} and {@link FaultKind#DS_RESTART}
 * @param faults        the faults, in any order
 */
public record Scenario(long seed, String workload, String tree, int coordinators, int dataServers, int clients,
                       int txnsPerClient, boolean durable, List<Fault> faults) {
    public Scenario {
        faults = faults == null ? List.of() : List.copyOf(faults);
    }

    /** The same scenario with other faults. */
    public Scenario withFaults(List<Fault> other) {
        return new Scenario(seed, workload, tree, coordinators, dataServers, clients, txnsPerClient, durable, other);
    }

    /** The same scenario with other client counts. */
    public Scenario withClients(int n, int txnsEach) {
        return new Scenario(seed, workload, tree, coordinators, dataServers, n, txnsEach, durable, faults);
    }

    /** The same scenario with another tree (YAML text). */
    public Scenario withTree(String yaml) {
        return new Scenario(seed, workload, yaml, coordinators, dataServers, clients, txnsPerClient, durable, faults);
    }

    /** The same scenario with other node counts. */
    public Scenario withNodes(int tcs, int dss) {
        return new Scenario(seed, workload, tree, tcs, dss, clients, txnsPerClient, durable, faults);
    }

    /** Faults per kind (kinds without faults absent). */
    public Map<FaultKind, Integer> faultCounts() {
        Map<FaultKind, Integer> m = new EnumMap<>(FaultKind.class);
        faults.forEach(f -> m.merge(f.kind(), 1, Integer::sum));
        return m;
    }

    /** The faults of {@code kind}, in list order. */
    public List<Fault> faults(FaultKind kind) {
        List<Fault> l = new ArrayList<>();
        faults.forEach(f -> {
            if (f.kind() == kind) {
                l.add(f);
            }
        });
        return l;
    }

    /** When the last fault heals, µs of virtual time (0 without faults). */
    public long lastHealMicros() {
        return faults.stream().mapToLong(Fault::endMicros).max().orElse(0);
    }
}
