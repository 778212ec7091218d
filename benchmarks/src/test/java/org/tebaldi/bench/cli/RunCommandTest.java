package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code tebaldi} command end to end, in-process, on the shipped {@code config/experiments/bank-2pl.yaml}. */
class RunCommandTest {
    private static final Path BANK = Path.of("../config/experiments/bank-2pl.yaml");
    private static final Pattern PROGRESS = Pattern.compile("\\[\\ds/3s] (warmup|measure) +[\\d,]+ txn/s  abort "
            + "\\d+\\.\\d%");

    @TempDir
    Path tmp;

    /** Output of one in-process run. */
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void runsTheShippedBankExperiment() throws Exception {
        Path dir = tmp.resolve("run");
        Run r = run("run", BANK.toString(), "--set", "duration=2s", "--out", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("", r.err());
        List<String> lines = r.out().lines().toList();
        List<String> progress = lines.stream().filter(l -> l.startsWith("[")).toList();
        assertEquals(3, progress.size(), r.out());
        progress.forEach(l -> assertTrue(PROGRESS.matcher(l).matches(), l));
        assertTrue(progress.get(0).contains("warmup") && progress.get(2).contains("measure"), r.out());
        assertTrue(lines.contains("load  account 100/100 (100%)"), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("type +committed +txn/s +abort +errors +p50 ms +p95 ms "
                + "+p99 ms")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("transfer ")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("total ")), r.out());
        assertTrue(lines.contains("serializability: serializable"), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("consistency: ok")), r.out());
        JsonNode s = new ObjectMapper().readTree(Files.readString(dir.resolve("summary.json")));
        assertTrue(s.get("checks").get("serializable").booleanValue());
        assertTrue(s.get("checks").get("consistency").booleanValue());
        assertEquals("2s", s.get("config").get("duration").textValue());
        assertTrue(s.get("throughput").doubleValue() > 0);
        assertTrue(Files.isRegularFile(dir.resolve("timeline.csv")));
        assertTrue(lines.contains("window: warm-up 1.0 s (fixed) | 2 whole second(s) measured: too few to judge "
                + "steadiness (3 needed)"), r.out());
        JsonNode w = s.get("window");
        assertEquals(1000, w.get("warmupMs").asLong(), w.toString());
        assertTrue(w.get("settled").isNull() && w.get("steady").isNull() && w.get("warning").isNull(), w.toString());
        assertEquals(2, w.get("samples").asInt(), w.toString());
    }

    @Test
    void aWarmupUntilThroughputSettles() throws Exception {
        Path dir = tmp.resolve("settle");
        Run r = run("run", BANK.toString(), "--set", "warmup={min: 0s, max: 11s}", "--set", "duration=3s", "--out",
                dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.contains("warmup 0us..11s until throughput settles")), r.out());
        List<String> progress = lines.stream().filter(l -> l.startsWith("[")).toList();
        assertTrue(progress.get(0).matches("\\[ 1s] warmup +[\\d,]+ txn/s  abort \\d+\\.\\d%"), progress.get(0));
        String last = progress.get(progress.size() - 1);
        assertTrue(last.matches("\\[(\\d+)s/\\1s] measure .*"), "the total is known once warm-up ended: " + last);
        JsonNode s = new ObjectMapper().readTree(Files.readString(dir.resolve("summary.json")));
        JsonNode w = s.get("window");
        assertTrue(w.get("settled").isBoolean(), w.toString());
        long warmupMs = w.get("warmupMs").asLong();
        if (w.get("settled").booleanValue()) { // tested at seconds 10 (the last 10 samples) and 11 (the max)
            assertTrue(warmupMs > 10_000 && warmupMs <= 11_000, w.toString());
        } else {
            assertEquals(11_000, warmupMs, w.toString());
        }
        assertEquals(3, w.get("samples").asInt(), w.toString());
        assertTrue(w.get("steady").isBoolean() && w.get("cv").isNumber(), w.toString());
        assertEquals(3000, s.get("run").get("measuredMs").asLong());
        assertEquals("11s", s.at("/config/warmup/max").asText(), s.get("config").toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("window: warm-up ")), r.out());
    }

    @Test
    void aNodeFailureFailsTheRunClearly() throws Exception {
        Path exp = tmp.resolve("crash.yaml");
        Files.writeString(exp, """
                name: crash
                workload: {name: bank, accounts: 4}
                tree: {root: {cc: crashing, txns: [transfer, audit]}}
                clients: 2
                duration: 120s
                """);
        Path dir = tmp.resolve("crash-run");
        long t0 = System.nanoTime();
        Run r = run("run", exp.toString(), "--out", dir.toString());
        assertEquals(3, r.code(), r.out() + r.err());
        assertTrue(r.err().matches("(?s).*run failed: \\d+ exception\\(s\\) in cluster nodes \\(run stopped early\\); "
                + "first: java.lang.IllegalStateException: crashing mechanism at work\n"), r.err());
        assertTrue(System.nanoTime() - t0 < 60_000_000_000L, "stopped early, not after the 120 s duration");
        assertFalse(Files.exists(dir));
    }

    @Test
    void aFailedCheckExitsOneAndStillWritesTheSummary() throws Exception {
        Path exp = tmp.resolve("inconsistent.yaml");
        Files.writeString(exp, """
                name: inconsistent
                workload: {name: faulty, throws: false, consistent: false}
                tree: {root: {cc: 2pl, txns: [boom]}}
                clients: 2
                duration: 1s
                verify: true
                """);
        Path dir = tmp.resolve("inconsistent-run");
        Run r = run("run", exp.toString(), "--out", dir.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("consistency: VIOLATED — told to fail\n  condition 1 violated\n"), r.out());
        JsonNode s = new ObjectMapper().readTree(Files.readString(dir.resolve("summary.json")));
        assertTrue(s.get("checks").get("serializable").booleanValue());
        assertFalse(s.get("checks").get("consistency").booleanValue());
        assertEquals("condition 1 violated", s.get("checks").get("consistencyProblems").get(0).textValue());
    }

    @Test
    void badConfigExitsTwoWithOneMessageAndWritesNothing() {
        Path dir = tmp.resolve("never");
        Run r = run("run", BANK.toString(), "--set", "clients=0", "--out", dir.toString());
        assertEquals(2, r.code());
        assertEquals("--set clients=0: clients: must be at least 1, found 0. Fix: write e.g. clients: 50\n",
                r.err().replace("\r\n", "\n"));
        assertEquals("", r.out());
        assertFalse(Files.exists(dir));
    }

    @Test
    void missingExperimentFileExitsTwo() {
        Run r = run("run", tmp.resolve("nope.yaml").toString(), "--out", tmp.resolve("never").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith(tmp.resolve("nope.yaml") + ": no such experiment file. Fix: "), r.err());
        assertFalse(Files.exists(tmp.resolve("never")));
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, run().code());
        assertEquals(2, run("run").code());
        assertEquals(2, run("run", BANK.toString(), "--bogus").code());
    }

    @Test
    void aFailingWorkloadFailsTheRunClearly() throws Exception {
        Path exp = tmp.resolve("faulty.yaml");
        Files.writeString(exp, """
                name: faulty
                workload: {name: faulty}
                tree: {root: {cc: 2pl, txns: [boom]}}
                clients: 2
                duration: 120s
                """);
        Path dir = tmp.resolve("faulty-run");
        long t0 = System.nanoTime();
        Run r = run("run", exp.toString(), "--out", dir.toString());
        assertEquals(3, r.code(), r.out() + r.err());
        assertEquals("run failed: 2 exception(s) in workload code run by the driver; first: "
                + "java.lang.IllegalStateException: workload bug in client 0\n", r.err().replace("\r\n", "\n"));
        assertTrue(System.nanoTime() - t0 < 60_000_000_000L, "stopped early, not after the 120 s duration");
        assertFalse(Files.exists(dir));
    }
}
