package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentFixture;
import org.tebaldi.bench.report.SummaryJson;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.runtime.cost.CostTable;

/**
 * Durability on the simulated cluster (docs/simulation.md, "Durability"): the real logging and GCP-epoch protocol over
 * modelled stores ({@code server.durability.SimLogStore}) whose costs come from the cost table's {@code logStore}
 * section. A small TPC-C run with durability on is verified (serializable, consistent), closes epochs and sends
 * durable notices, is deterministic per seed in costMode model, and synchronous mode — a sync before every vote —
 * makes commits slower by about the table's sync time; a table without log-store costs is one clear message. The
 * tree is the three-layer one (SSI over {none, 2PL over two RP groups}); it stalled here until RP's step locks
 * detected deadlocks within a step (docs/mechanisms.md, "Runtime pipelining").
 */
class SimulatedDurabilityTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String EXPERIMENT = """
            name: sim-durable
            workload: {name: tpcc, warehouses: 2, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60}
            tree: %s
            cluster:
              mode: simulated
              coordinators: 4
              dataServers: 4
              simulation:
                machines: 2
                coresPerMachine: 4
                latency: {min: 40us, max: 80us}
                localLatency: 10us
                serviceMachine: true
                costs: %s
            clients: 20
            warmup: 200ms
            duration: 1s
            verify: true
            durability: {enabled: true, epoch: 50ms}
            seed: 7
            """;

    @TempDir
    static Path tmp;
    static RunResult first;
    static RunResult again;
    static RunResult sync;

    static Experiment experiment(String... sets) {
        return new ExperimentFixture(tmp).load(String.format(EXPERIMENT, ROOT.resolve(
                "config/trees/tebaldi-3layer.yaml"), ROOT.resolve("config/costs/this-machine.yaml")), sets);
    }

    @BeforeAll
    static void run() throws Exception {
        first = new SimulatedExperimentRun(experiment(), new RunListener() { }).run();
        again = new SimulatedExperimentRun(experiment(), new RunListener() { }).run();
        sync = new SimulatedExperimentRun(experiment("durability.sync=true"), new RunListener() { }).run();
    }

    @Test
    void aDurableRunIsVerifiedAndRunsTheDurabilityProtocol() {
        assertTrue(first.checks().passed(), first.checks().report());
        assertTrue(first.driver().total().committed() > 100, "committed " + first.driver().total().committed());
        ObjectNode o = SummaryJson.build(first);
        assertEquals("simulated", o.at("/config/durability/store").asText());
        assertTrue(o.at("/messages/counts/Persisted").asLong() > 0, "epochs closed: " + o.get("messages"));
        assertTrue(o.at("/messages/counts/Txns").asLong() > 0, "durable notices sent: " + o.get("messages"));
        assertTrue(sync.checks().passed(), sync.checks().report());
    }

    @Test
    void sameSeedSameNumbers() {
        ObjectNode a = SummaryJson.build(first);
        ObjectNode b = SummaryJson.build(again);
        for (String k : List.of("throughput", "committed", "aborted", "latency", "types", "timeline", "messages")) {
            assertEquals(a.get(k), b.get(k), k);
        }
        assertEquals(a.at("/machine/cpuMs"), b.at("/machine/cpuMs"));
    }

    @Test
    void synchronousModeWaitsForASyncBeforeEveryVote() {
        double syncMs = CostTable.read(ROOT.resolve("config/costs/this-machine.yaml")).logStore().syncMicros() / 1000;
        double async = SummaryJson.build(first).at("/latency/p50Ms").asDouble();
        double synced = SummaryJson.build(sync).at("/latency/p50Ms").asDouble();
        assertTrue(synced >= async + 0.5 * syncMs, "p50 " + async + " ms async, " + synced + " ms sync; sync "
                + syncMs + " ms");
    }

    @Test
    void aTableWithoutLogStoreCostsIsOneClearMessage() throws Exception {
        String text = Files.readString(ROOT.resolve("config/costs/this-machine.yaml"));
        Path t = tmp.resolve("no-log.yaml");
        Files.writeString(t, text.substring(0, text.indexOf("\nlogStore:")) + "\n");
        ConfigException x = assertThrows(ConfigException.class, () -> new ExperimentFixture(tmp).load(String.format(
                EXPERIMENT, ROOT.resolve("config/trees/tebaldi-3layer.yaml"), t)));
        assertTrue(x.getMessage().contains("durability.enabled: the cost table " + t + " has no log-store costs")
                && x.getMessage().contains("calibrate-durability"), x.getMessage());
    }
}
