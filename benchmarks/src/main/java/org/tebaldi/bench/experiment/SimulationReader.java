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
 * {@code config/costs/this-machine.yaml}, costMode model, no service machine. {@code latency} is one duration or
 * {@code {min, max}}; {@code costs} is resolved against the working directory, then the experiment's folder and each
 * folder above it (so {@code config/costs/...} is found from any folder of the repository), and read at once (a
 * missing or broken table fails the load with one message).
 */
final class SimulationReader {
    static final String DEFAULT_COSTS = "config/costs/this-machine.yaml";

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
        return new SimulationSpec(machines, cores, min, max, local, bandwidth, costs, table, mode, serviceMachine,
                embedded);
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
