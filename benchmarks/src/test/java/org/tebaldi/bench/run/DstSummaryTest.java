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
 * {@code summary.json}'s timestamp keys on a short simulated, verified TPC-C run of the read-heavy mix
 * (79% read-only, stock_level over 20 districts) under SSI's root optimization: with {@code timestamps: gts} every
 * commit and snapshot talks to the timestamp service, with {@code dst} none does, snapshot reads report their
 * visibility lag, and both histories are serializable and consistent.
 */
class DstSummaryTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String EXPERIMENT = """
            name: dst-sim
            workload: {name: tpcc, warehouses: 2, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60,
                       mix: read_heavy, stockLevelDistricts: 20}
            tree: %s
            cluster:
              mode: simulated
              coordinators: 2
              dataServers: 2
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

    private ObjectNode run(String tree) throws Exception {
        var e = new ExperimentFixture(tmp).load(String.format(EXPERIMENT, ROOT.resolve("config/trees/" + tree),
                ROOT.resolve("config/costs/this-machine.yaml")));
        RunResult r = new SimulatedExperimentRun(e, new RunListener() { }).run();
        assertTrue(r.checks().passed(), r.checks().report());
        return SummaryJson.build(r);
    }

    @Test
    void dstSendsNoTimestampServiceMessageAndMeasuresItsSnapshots() throws Exception {
        ObjectNode gts = run("initial.yaml");
        ObjectNode dst = run("initial-dst.yaml");
        assertTrue(gts.get("committed").asLong() > 0 && dst.get("committed").asLong() > 0, dst.toString());
        assertTrue(gts.get("tsMessagesPerTxn").asDouble() > 0.5, "gts: " + gts.get("tsMessagesPerTxn"));
        assertEquals(0.0, dst.get("tsMessagesPerTxn").asDouble(), "dst: " + dst.get("tsMessagesPerTxn") + " "
                + dst.at("/messages/counts"));
        assertTrue(dst.get("roVisibilityLagMs").isNumber() && dst.get("roVisibilityLagMs").asDouble() >= 0,
                "lag " + dst.get("roVisibilityLagMs"));
        assertTrue(dst.get("roBlockedReads").asLong() >= 0);
        assertTrue(gts.get("roVisibilityLagMs").isNull(), "gts takes no DST snapshot: " + gts.get("roVisibilityLagMs"));
        assertTrue(dst.at("/types/stock_level/committed").asLong() > 0, dst.toString());
    }
}
