package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.ExperimentFixture;
import org.tebaldi.bench.report.SummaryJson;

/**
 * {@code summary.json} under {@code cluster.commit: epoch} (a short simulated TPC-C run, verified): {@code epochs}
 * and {@code epochCommitLatencyMs} are measured, transactions waited for their epoch, the run checks; under
 * {@code 2pc} the new keys are null and every other key is as before.
 */
class EpochSummaryTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String EXPERIMENT = """
            name: epoch-sim
            workload: {name: tpcc, warehouses: 2, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60}
            tree: %s
            cluster:
              mode: simulated
              coordinators: 2
              dataServers: 2
              commit: %s
              simulation:
                machines: 2
                coresPerMachine: 2
                latency: {min: 40us, max: 80us}
                localLatency: 10us
                costs: %s
            clients: 10
            warmup: 100ms
            duration: 400ms
            verify: true
            seed: 3
            """;

    @TempDir
    Path tmp;

    private ObjectNode run(String commit) throws Exception {
        var e = new ExperimentFixture(tmp).load(String.format(EXPERIMENT, ROOT.resolve("config/trees/2pl.yaml"),
                commit, ROOT.resolve("config/costs/this-machine.yaml")));
        RunResult r = new SimulatedExperimentRun(e, new RunListener() { }).run();
        assertTrue(r.checks().passed(), r.checks().report());
        return SummaryJson.build(r);
    }

    @Test
    void epochCommitIsMeasured() throws Exception {
        ObjectNode o = run("epoch");
        assertTrue(o.get("committed").asLong() > 0, o.toString());
        // 500 ms of virtual time at 10 ms epochs
        assertTrue(o.get("epochs").asLong() >= 40, "epochs " + o.get("epochs"));
        assertTrue(o.get("epochCommitLatencyMs").asDouble() > 0, "latency " + o.get("epochCommitLatencyMs"));
        assertEquals(0, o.get("epochsAborted").asLong());
        assertTrue(o.get("epochHeldMs").asDouble() > 0 && o.get("epochHeldMs").asDouble() < 20,
                "held " + o.get("epochHeldMs"));
        assertEquals("epoch", o.at("/config/cluster/commit").asText());
    }

    @Test
    void twoPhaseCommitHasNoEpochs() throws Exception {
        ObjectNode o = run("2pc");
        assertTrue(o.get("epochs").isNull() && o.get("epochCommitLatencyMs").isNull(), o.toString());
        assertEquals("2pc", o.at("/config/cluster/commit").asText());
    }
}
