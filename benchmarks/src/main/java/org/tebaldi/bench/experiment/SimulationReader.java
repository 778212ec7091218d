package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.tebaldi.core.runtime.cost.CostTable;

/**
 * Binds {@code cluster.simulation} (docs/simulation.md, "Running it"). Defaults: one machine of 2 cores, and
 * without {@code latency} and {@code localLatency} the embedded runtime's network of this machine ({@code
 * cluster.networkDelay} plus the lateness the cost table measured), 10 Gbit/s, costs
 * {@code config/costs/default.yaml} (calibrated on the project's 2-core VM with verification on, docs/simulation.md,
 * "The committed tables"), costMode model, no service machine. {@code latency} is one duration or {@code {min, max}}; {@code costs} is resolved against the working directory, then the experiment's folder and each
 * folder above it (so {@code config/costs/...} is found from any folder of the repository), and read at once (a
 * missing or broken table fails the load with one message). {@code groups} (default 1) splits the machines into racks
 * or data centres, {@code groupLatency} (one duration or {@code {min, max}}) is the extra one-way latency between
 * two of them, and {@code tsOpsPerSecond} bounds the timestamp service's machine (docs/simulation.md, "Cost model").
 */
final class SimulationReader {
    static final String DEFAULT_COSTS = "config/costs/default.yaml";

    private SimulationReader() {
    }

    static SimulationSpec read(Fields s, Path dir, Path cwd, long networkDelayMicros) {
        s.checkKnown(ExperimentSchema.SIMULATION);
        int machines = s.intNumber("machines", 1, 1, "20");
        int cores = s.intNumber("coresPerMachine", 2, 1, "20");
        long min;
        long max;
        JsonNode lat = s.node().get("latency");
        boolean embedded = lat == null && !s.node().has("localLatency");
        String nominal = org.tebaldi.core.config.Durations.format(networkDelayMicros);
        if (lat != null && lat.isObject()) {
            Fields l = s.section("latency", "{min: 40us, max: 80us}");
            l.checkKnown(ExperimentSchema.LATENCY);
            min = l.duration("min", null, false, "40us");
            max = l.duration("max", null, false, "80us");
            if (max < min) {
                throw s.error("latency.max", "must be at least latency.min", "raise max or lower min");
            }
        } else {
            min = s.duration("latency", nominal, false, "50us");
            max = min;
        }
        long local = s.duration("localLatency", lat == null ? nominal : null, false, "10us");
        double bandwidth = s.decimal("bandwidthGbps", 10, 0.001, 1e6, "10");
        String costsName = s.path("costs", DEFAULT_COSTS, DEFAULT_COSTS);
        Path costs = resolve(s, costsName, dir, cwd);
        CostTable table = CostTable.read(costs);
        String mode = s.choice("costMode", "model", List.of("model", "measured"));
        boolean serviceMachine = s.bool("serviceMachine", false);
        int groups = s.intNumber("groups", 1, 1, "3");
        long[] apart = groupLatency(s, groups);
        double tsOps = s.decimal("tsOpsPerSecond", 0, 0, 1e12, "1260000");
        return new SimulationSpec(machines, cores, min, max, local, bandwidth, costs, table, mode, serviceMachine,
                embedded, groups, apart[0], apart[1], tsOps);
    }

    /** {@code groupLatency}: one duration or {@code {min, max}}; only with {@code groups} of 2 or more. */
    private static long[] groupLatency(Fields s, int groups) {
        JsonNode g = s.node().get("groupLatency");
        if (g == null) {
            return new long[] {0, 0};
        }
        if (groups < 2) {
            throw s.error("groupLatency", "applies between groups, but groups is 1", "set groups: 2 or more, or drop"
                    + " groupLatency");
        }
        if (g.isObject()) {
            Fields l = s.section("groupLatency", "{min: 5ms, max: 30ms}");
            l.checkKnown(ExperimentSchema.LATENCY);
            long min = l.duration("min", null, false, "5ms");
            long max = l.duration("max", null, false, "30ms");
            if (max < min) {
                throw s.error("groupLatency.max", "must be at least groupLatency.min", "raise max or lower min");
            }
            return new long[] {min, max};
        }
        long d = s.duration("groupLatency", null, false, "25ms");
        return new long[] {d, d};
    }

    private static Path resolve(Fields s, String name, Path dir, Path cwd) {
        Path p = Path.of(name);
        if (p.isAbsolute()) {
            if (!Files.isRegularFile(p)) {
                throw s.error("costs", "no cost table at " + p, "run scripts/tebaldi calibrate --out " + p);
            }
            return p;
        }
        Path a = cwd.resolve(p).normalize();
        Path b = dir.resolve(p).normalize();
        if (Files.isRegularFile(a)) {
            return a;
        }
        for (Path d = dir.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve(p))) {
                return d.resolve(p).normalize();
            }
        }
        throw s.error("costs", "no cost table at " + a + (a.equals(b) ? "" : " or " + b),
                "run scripts/tebaldi calibrate --out " + name + " (or name an existing table in config/costs/)");
    }
}
