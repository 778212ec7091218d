package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tebaldi tune} on {@code cluster.mode: simulated} end to end (docs/autoconf.md, "Tuning a simulated
 * cluster"): a contended bank (10 accounts, half the transactions audits) on 2 machines x 2 virtual cores and a
 * service machine, starting from {@code 2pl[transfer,audit]} with SSI and TSO offered. The configurator profiles,
 * swaps {@code ssi{2pl[transfer],2pl[audit]}} in and out over interleaved windows, confirms and adopts it, measures
 * it and ends the run; the history is serializable.
 *
 * <p>Everything the configurator does happens in virtual time, so the same seed gives the same session to the
 * transaction: the second run prints the same windows, the same gains, swaps at the same virtual milliseconds and
 * adopts the same tree. A configurator on the real clock would sample a virtual cluster that runs at whatever speed
 * this machine gives it, and neither would hold; nor would its first swap start at 2,000 virtual ms (warm-up 1 s,
 * the bottleneck analysis 500 ms, then the incumbent's first 500 ms window).
 */
class TuneSimulatedTest {
    private static final Path COSTS = Path.of("..").toAbsolutePath().normalize()
            .resolve("config/costs/this-machine.yaml");

    @TempDir
    Path tmp;

    private RunCommandTest.Run tune(Path exp, String out) {
        RunCommandTest.Run r = RunCommandTest.run("tune", exp.toString(), "--out", tmp.resolve(out).toString());
        assertEquals(0, r.code(), r.out() + r.err());
        return r;
    }

    private static List<String> tuneLines(RunCommandTest.Run r) {
        return r.out().lines().filter(l -> l.startsWith("tune ")).toList();
    }

    @Test
    void theSameSeedTunesTheSameWayInVirtualTime() throws Exception {
        Path exp = tmp.resolve("tune-sim.yaml");
        Files.writeString(exp, """
                name: tune-sim
                workload: {name: bank, accounts: 10, auditRatio: 0.5}
                tree: {root: {cc: 2pl, options: {lockTimeout: 10ms, deadlock: wait-die}, txns: [transfer, audit]}}
                cluster: {mode: simulated, dataServers: 2, coordinators: 2,
                          simulation: {machines: 2, coresPerMachine: 2, serviceMachine: true, costs: %s}}
                clients: 16
                warmup: 1s
                duration: 120s
                verify: true
                seed: 3
                profiler: {window: 250ms, flush: 10ms}
                autoconf: {mechanisms: [ssi, tso], analysis: 500ms, measure: 500ms, settle: 1s, settleWindow: 300ms,
                           rounds: 3, maxRounds: 3, maxIterations: 1, edgesPerIteration: 1, maxCandidates: 2,
                           final: 500ms, minScore: 0}
                """.formatted(COSTS));
        RunCommandTest.Run first = tune(exp, "first");
        List<String> lines = tuneLines(first);
        assertTrue(lines.stream().anyMatch(l -> l.contains("iteration 1: bottleneck transfer–audit")), first.out());
        assertTrue(lines.stream().anyMatch(l -> l.contains("decision: adopt ssi{2pl[transfer],2pl[audit]}")),
                first.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("tune  final tree ssi{2pl[transfer],2pl[audit]}: ")),
                first.out());
        assertTrue(first.out().contains("serializability: serializable"), first.out());

        Path d1 = tmp.resolve("first");
        JsonNode t = new ObjectMapper().readTree(Files.readString(d1.resolve("tuning.json")));
        assertEquals("reached 1 iterations", t.get("outcome").textValue(), t.toString());
        assertEquals("ssi{2pl[transfer],2pl[audit]}", t.get("finalTree").textValue());
        List<String> swaps = Files.readAllLines(d1.resolve("reconfigurations.csv"));
        assertTrue(swaps.size() >= 3, swaps.toString());
        assertTrue(swaps.get(1).startsWith("2000,"), "the first swap at virtual 2,000 ms: " + swaps.get(1));
        JsonNode s = new ObjectMapper().readTree(Files.readString(d1.resolve("summary.json")));
        long virtualMs = s.get("simulation").get("virtualMs").longValue();
        for (String row : swaps.subList(1, swaps.size())) {
            long end = Long.parseLong(row.split(",")[1]);
            assertTrue(end <= virtualMs, "swap " + row + " ends within the run's " + virtualMs + " virtual ms");
        }

        RunCommandTest.Run again = tune(exp, "again");
        assertEquals(lines, tuneLines(again), "the same seed, the same tuning session");
        Path d2 = tmp.resolve("again");
        assertEquals(Files.readString(d1.resolve("tuning.json")), Files.readString(d2.resolve("tuning.json")));
        assertEquals(swaps, Files.readAllLines(d2.resolve("reconfigurations.csv")));
        assertEquals(Files.readString(d1.resolve("tuning-timeline.csv")),
                Files.readString(d2.resolve("tuning-timeline.csv")));
    }

    /**
     * The daemon on a workload shift, end to end in virtual time (docs/autoconf.md, "The daemon"): the bank's audit
     * share moves from 2% to 50% at virtual second 10. The first pass keeps {@code 2pl[transfer,audit]}; the daemon
     * must not re-enter before the shift, must re-enter after it because the type mix changed, and must adopt
     * {@code ssi{2pl[transfer],2pl[audit]}}; summary.json and tuning.json record the shift.
     */
    @Test
    void theDaemonRetunesAfterAWorkloadShift() throws Exception {
        Path exp = tmp.resolve("shift-sim.yaml");
        Files.writeString(exp, """
                name: shift-sim
                workload: {name: bank, accounts: 10, auditRatio: 0.02, shift: [{at: 10s, auditRatio: 0.5}]}
                tree: {root: {cc: 2pl, options: {lockTimeout: 10ms, deadlock: wait-die}, txns: [transfer, audit]}}
                cluster: {mode: simulated, dataServers: 2, coordinators: 2,
                          simulation: {machines: 2, coresPerMachine: 2, serviceMachine: true, costs: %s}}
                clients: 16
                warmup: 1s
                duration: 28s
                verify: true
                seed: 3
                profiler: {window: 250ms, flush: 10ms}
                autoconf: {mechanisms: [ssi, tso], analysis: 500ms, measure: 500ms, settle: 1s, settleWindow: 300ms,
                           rounds: 3, maxRounds: 3, maxIterations: 2, edgesPerIteration: 1, maxCandidates: 2,
                           final: 500ms, minScore: 0, daemon: true}
                """.formatted(COSTS));
        RunCommandTest.Run r = tune(exp, "shift");
        assertTrue(r.out().contains("serializability: serializable"), r.out());
        Path d = tmp.resolve("shift");
        JsonNode t = new ObjectMapper().readTree(Files.readString(d.resolve("tuning.json")));
        JsonNode re = t.get("reentries");
        assertEquals(1, re.size(), t.toString());
        assertTrue(re.get(0).get("why").textValue().startsWith("workload mix changed"), t.toString());
        assertTrue(re.get(0).get("tMs").longValue() > 10_000, t.toString());
        assertEquals(0, t.get("engineDrifts").size(), t.toString());
        assertEquals("ssi{2pl[transfer],2pl[audit]}", t.get("finalTree").textValue(), t.toString());
        JsonNode s = new ObjectMapper().readTree(Files.readString(d.resolve("summary.json"))).get("shifts");
        assertEquals(1, s.size(), s.toString());
        assertEquals(10_000, s.get(0).get("atMs").longValue(), s.toString());
        assertEquals(10_000, s.get(0).get("firstMs").longValue(), s.toString());
        assertEquals(0.5, s.get(0).get("changes").get("auditRatio").doubleValue(), s.toString());
    }
}
