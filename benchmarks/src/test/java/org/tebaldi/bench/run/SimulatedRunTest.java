package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentFixture;
import org.tebaldi.bench.report.SummaryJson;
import org.tebaldi.core.config.ConfigException;

/**
 * A small calibrated cluster simulation end to end (docs/simulation.md): TPC-C (4 warehouses, scaled down) under
 * the three-layer tree on 2 machines x 2 virtual cores plus a service machine, with the committed cost table
 * {@code config/costs/this-machine.yaml}; verified; deterministic per seed (same seed, same numbers).
 */
class SimulatedRunTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String EXPERIMENT = """
            name: sim-test
            workload: {name: tpcc, warehouses: 4, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60}
            tree: %s
            cluster:
              mode: simulated
              coordinators: 4
              dataServers: 4
              simulation:
                machines: 2
                coresPerMachine: 2
                latency: {min: 40us, max: 80us}
                localLatency: 10us
                serviceMachine: true
                costs: %s
            clients: 20
            warmup: 200ms
            duration: 1s
            verify: true
            seed: %d
            """;

    @TempDir
    static Path tmp;
    static RunResult first;
    static RunResult again;
    static RunResult otherSeed;
    static final List<ProgressTick> TICKS = new ArrayList<>();
    static final List<String> NOTES = new ArrayList<>();
    static final List<String> PHASES = new ArrayList<>();

    static Experiment experiment(long seed) {
        return new ExperimentFixture(tmp).load(String.format(EXPERIMENT,
                ROOT.resolve("config/trees/tebaldi-3layer.yaml"), ROOT.resolve("config/costs/this-machine.yaml"), seed));
    }

    @BeforeAll
    static void run() throws Exception {
        first = new SimulatedExperimentRun(experiment(7), new RunListener() {
            @Override
            public void tick(ProgressTick t) {
                TICKS.add(t);
            }

            @Override
            public void note(String line) {
                NOTES.add(line);
            }

            @Override
            public void phase(String what) {
                PHASES.add(what);
            }
        }).run();
        again = new SimulatedExperimentRun(experiment(7), new RunListener() { }).run();
        otherSeed = new SimulatedExperimentRun(experiment(8), new RunListener() { }).run();
    }

    @Test
    void runsVerifiedInVirtualTime() {
        assertTrue(first.checks().passed(), first.checks().report());
        assertEquals(Boolean.TRUE, first.checks().serializable());
        assertTrue(first.driver().total().committed() > 100, "committed " + first.driver().total().committed());
        assertEquals(1_000_000, first.driver().measuredMicros());
        assertEquals(2, TICKS.size(), "one tick per virtual second, the last partial");
        assertTrue(TICKS.stream().allMatch(t -> t.wallMillis() >= 0));
        SimulationInfo s = first.simulation();
        assertEquals(3, s.machines());
        assertEquals(3, s.machineUtilization().length);
        for (double u : s.machineUtilization()) {
            assertTrue(u >= 0 && u <= 1.0 + 1e-9, "utilization " + u);
        }
        assertTrue(s.machineUtilization()[0] > 0 && s.machineUtilization()[1] > 0);
        assertEquals("services", s.machineNodes()[2]);
    }

    @Test
    void sameSeedSameNumbers() {
        ObjectNode a = SummaryJson.build(first);
        ObjectNode b = SummaryJson.build(again);
        for (String k : List.of("throughput", "committed", "aborted", "latency", "types", "timeline", "messages")) {
            assertEquals(a.get(k), b.get(k), k);
        }
        assertEquals(a.at("/machine/cpuMs"), b.at("/machine/cpuMs"));
        ObjectNode c = SummaryJson.build(otherSeed);
        assertNotEquals(a.get("timeline"), c.get("timeline"), "another seed, another run");
    }

    @Test
    void summaryMarksVirtualTime() {
        ObjectNode o = SummaryJson.build(first);
        assertEquals("virtual", o.get("time").asText());
        assertEquals("model", o.at("/simulation/costMode").asText());
        assertEquals("this-machine/tpcc", o.at("/simulation/costs").asText(), "the TPC-C costs of the table");
        assertEquals("simulated", o.at("/config/cluster/mode").asText());
        assertEquals(2, o.at("/config/cluster/simulation/coresPerMachine").asInt());
        assertEquals(200, o.at("/window/warmupMs").asLong(), "virtual ms");
        assertTrue(o.at("/window/settled").isNull(), "a fixed warm-up");
        assertEquals(1, o.at("/window/samples").asInt());
    }

    @Test
    void theRunSaysWhereItsCostTableWasMeasuredAndRecordsThisHost() {
        String line = NOTES.get(0);
        assertTrue(line.startsWith("cost table 'this-machine'") || line.startsWith("WARNING: cost table 'this-machine'")
                || line.startsWith("NOTE: cost table 'this-machine'"), NOTES.toString());
        ObjectNode o = SummaryJson.build(first);
        assertEquals(line, o.at("/simulation/hostCheck").asText());
        assertTrue(o.at("/simulation/host/probe/nsPerIteration").asDouble() > 0, o.get("simulation").toString());
        assertEquals(org.tebaldi.core.runtime.cost.HostIdentity.here().cpuModel(),
                o.at("/simulation/host/cpuModel").asText());
        assertEquals(o.at("/simulation/costsHost").isNull(), o.at("/simulation/costsOnOtherHost").isNull(),
                "unknown host: both null; else the table's host and the verdict");
    }

    @Test
    void theHistoryIsSpilledDuringTheRunAndCheckedAfterIt() {
        assertTrue(PHASES.stream().anyMatch(p -> p.startsWith("history spilled during the simulation and checked "
                + "after it: serializable")), PHASES.toString());
    }

    @Test
    void aMissingCostTableIsOneClearMessage() {
        ConfigException x = assertThrows(ConfigException.class, () -> new ExperimentFixture(tmp).load(
                ExperimentFixture.BANK.replace("cluster: {dataServers: 2, coordinators: 2}",
                        "cluster: {mode: simulated, simulation: {costs: config/costs/nope.yaml}}")));
        assertTrue(x.getMessage().contains("cluster.simulation.costs") && x.getMessage().contains("calibrate"),
                x.getMessage());
    }

    @Test
    void aSimulationSectionNeedsSimulatedMode() {
        ConfigException x = assertThrows(ConfigException.class, () -> new ExperimentFixture(tmp).load(
                ExperimentFixture.BANK.replace("cluster: {dataServers: 2, coordinators: 2}",
                        "cluster: {mode: embedded, simulation: {machines: 2}}")));
        assertTrue(x.getMessage().contains("mode: simulated"), x.getMessage());
    }

    @Test
    void groupsAndTheTimestampBoundAreReadAndAGroupLatencyWithoutGroupsIsOneMessage() {
        String costs = "costs: " + java.nio.file.Path.of("../config/costs/this-machine.yaml").toAbsolutePath()
                .normalize() + ", ";
        ConfigException x = assertThrows(ConfigException.class, () -> new ExperimentFixture(tmp).load(
                ExperimentFixture.BANK.replace("cluster: {dataServers: 2, coordinators: 2}",
                        "cluster: {mode: simulated, simulation: {" + costs + "machines: 2, groupLatency: 5ms}}")));
        assertTrue(x.getMessage().contains("cluster.simulation.groupLatency") && x.getMessage().contains("groups"),
                x.getMessage());
        org.tebaldi.bench.experiment.Experiment e = new ExperimentFixture(tmp).load(ExperimentFixture.BANK.replace(
                "cluster: {dataServers: 2, coordinators: 2}", "cluster: {mode: simulated, simulation: {" + costs + "machines: 3, localLatency: 10us, "
                        + "latency: 50us, groups: 3, groupLatency: {min: 5ms, max: 30ms}, tsOpsPerSecond: 1260000}}"));
        org.tebaldi.bench.experiment.SimulationSpec s = e.cluster().simulation();
        assertTrue(s.groups() == 3 && s.groupLatencyMinMicros() == 5_000 && s.groupLatencyMaxMicros() == 30_000
                && s.tsOpsPerSecond() == 1_260_000, s.toString());
        org.tebaldi.core.runtime.cost.Hardware h = s.hardware(2, 2, "bank");
        assertTrue(h.groups() == 3 && Math.abs(h.tsFloorMicros() - 1e6 / 1_260_000) < 1e-9, h.toString());
    }
}
