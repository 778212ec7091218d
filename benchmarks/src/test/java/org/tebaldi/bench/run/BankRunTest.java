package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.driver.TimelinePoint;
import org.tebaldi.bench.driver.TypeStats;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentFixture;
import org.tebaldi.bench.report.ResultFiles;
import org.tebaldi.bench.report.SummaryJson;

/**
 * The driver on the bank workload in embedded mode (2 TCs, 2 DSs, 50 µs delay) for 2 s (1 s warm-up): throughput,
 * timeline, abort accounting with retries, warm-up exclusion, message counts, verification, and the shape of
 * {@code summary.json} (docs/experiments.md, "summary.json") built from it.
 */
class BankRunTest {
    @TempDir
    static Path tmp;
    static RunResult result;
    static final List<ProgressTick> TICKS = new ArrayList<>();
    static final List<String> LOAD = new ArrayList<>();

    @BeforeAll
    static void runOnce() throws Exception {
        ExperimentFixture fx = new ExperimentFixture(tmp);
        Experiment e = fx.load(ExperimentFixture.BANK.replace("clients: 4", "clients: 12") + "verify: true\n");
        result = new ExperimentRun(e, new RunListener() {
            @Override
            public void tick(ProgressTick tick) {
                TICKS.add(tick);
            }

            @Override
            public void loading(String stage, long done, long total) {
                LOAD.add(stage + " " + done + "/" + total);
            }
        }).run();
    }

    @Test
    void measuresThroughputAbortsAndTimeline() {
        DriverResult d = result.driver();
        assertTrue(d.throughput() > 0, "throughput " + d.throughput());
        assertEquals(d.total().committed() * 1e6 / 2_000_000, d.throughput(), 1e-9, "over the 2 s window");
        TypeStats transfer = d.types().get("transfer");
        TypeStats audit = d.types().get("audit");
        assertTrue(transfer.committed() > 0 && audit.committed() > 0, d.types().toString());
        assertEquals(transfer.committed() + audit.committed(), d.total().committed());
        assertTrue(d.total().aborted() > 0, "upgrade deadlocks under 2PL abort and are retried");
        assertEquals(0, d.total().errors(), d.errorSamples().toString());
        assertEquals((double) d.total().aborted() / (d.total().aborted() + d.total().committed()),
                d.total().abortRate(), 1e-12);
        assertEquals(30, d.timeline().size(), "100 ms buckets over 3 s");
        double warmupCommits = d.timeline().subList(0, 10).stream().mapToDouble(TimelinePoint::throughput).sum() / 10;
        double measured = d.timeline().subList(10, 30).stream().mapToDouble(TimelinePoint::throughput).sum() / 10;
        assertTrue(warmupCommits > 0);
        assertEquals(Math.round(measured), d.total().committed(), "warm-up excluded exactly");
        assertTrue(d.total().percentileMs(50) > 0.1, "at least two 50 us hops per round trip");
        assertTrue(d.total().percentileMs(99) >= d.total().percentileMs(50));
        assertEquals(3, TICKS.size());
        assertEquals("warmup", TICKS.get(0).phase());
        assertEquals("measure", TICKS.get(2).phase());
        assertEquals(List.of("account 20/20"), LOAD);
        assertEquals(20, result.rows());
        assertEquals(0, d.inFlightAtEnd());
    }

    @Test
    void countsMessagesAndVerifies() {
        DriverResult d = result.driver();
        long execs = d.messages().getOrDefault("ExecRequest", 0L);
        assertTrue(execs >= 4 * d.types().get("transfer").committed(), "4 operations per transfer at least");
        assertTrue(d.messages().getOrDefault("CommitRequest", 0L) >= d.total().committed());
        assertEquals(Boolean.TRUE, result.checks().serializable(), result.checks().report());
        assertEquals(Boolean.TRUE, result.checks().consistent(), result.checks().consistency().toString());
        assertTrue(result.checks().passed());
    }

    @Test
    void summaryJsonHasEverySchemaKeyWithTheRightType() throws Exception {
        ObjectNode s = SummaryJson.build(result);
        Path dir = tmp.resolve("out");
        ResultFiles.write(dir, s, result.driver().timeline());
        JsonNode j = new ObjectMapper().readTree(Files.readString(dir.resolve("summary.json")));
        assertEquals("bank-test", j.get("name").textValue());
        assertTrue(j.get("throughput").isNumber());
        assertTrue(j.get("committed").isIntegralNumber());
        assertTrue(j.get("aborted").isIntegralNumber());
        assertTrue(j.get("abortRate").isNumber());
        for (String k : List.of("p50Ms", "p95Ms", "p99Ms")) {
            assertTrue(j.get("latency").get(k).isNumber(), k);
        }
        assertEquals(List.of("transfer", "audit"), fieldNames(j.get("types")));
        for (JsonNode t : j.get("types")) {
            for (String k : List.of("throughput", "abortRate", "p50Ms", "p99Ms")) {
                assertTrue(t.get(k).isNumber(), k);
            }
        }
        assertTrue(j.get("timeline").isArray());
        assertEquals(30, j.get("timeline").size());
        for (JsonNode p : j.get("timeline")) {
            assertTrue(p.get("tMs").isIntegralNumber() && p.get("throughput").isNumber());
        }
        assertTrue(j.get("checks").get("serializable").booleanValue());
        assertTrue(j.get("checks").get("consistency").booleanValue());
        assertTrue(j.get("messages").get("perTxn").isNumber());
        JsonNode phases = j.get("messages").get("tcToDsPerPhase");
        assertEquals(List.of("execute", "validate", "commit", "abort"), fieldNames(phases));
        for (JsonNode v : phases) {
            assertTrue(v.isNumber());
        }
        assertTrue(phases.get("execute").doubleValue() >= 4, "a transfer executes 4 operations");
        JsonNode cfg = j.get("config");
        assertEquals("bank", cfg.get("workload").get("name").textValue());
        assertEquals(12, cfg.get("clients").intValue());
        assertEquals("50us", cfg.get("cluster").get("networkDelay").textValue());
        assertNotNull(cfg.get("retry").get("maxBackoff"));
        List<String> csv = Files.readAllLines(dir.resolve("timeline.csv"));
        assertEquals("tMs,throughput", csv.get(0));
        assertEquals(31, csv.size());
        assertTrue(csv.get(1).matches("100,\\d+\\.\\d"), csv.get(1));
    }

    @Test
    void summaryChecksAreNullWhenNotChecked() {
        RunResult unchecked = new RunResult(result.experiment(), result.driver(), Checks.notChecked(), 2, 0, 0);
        ObjectNode s = SummaryJson.build(unchecked);
        assertTrue(s.get("checks").get("serializable").isNull());
        assertTrue(s.get("checks").get("consistency").isNull());
        assertFalse(s.get("checks").has("missing"));
    }

    private static List<String> fieldNames(JsonNode o) {
        List<String> l = new ArrayList<>();
        o.fieldNames().forEachRemaining(l::add);
        return l;
    }
}
