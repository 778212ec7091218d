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
 * {@code tebaldi tune} end to end, in-process, on a contended bank (10 accounts): one iteration with short windows
 * must profile, propose, swap candidates in and the current tree back, decide, measure the final tree, end the run
 * early, verify it, and write every result file — the adopted trees loadable again by {@code tebaldi run}.
 */
class TuneCommandTest {
    @TempDir
    Path tmp;

    @Test
    void tunesAContendedBankAndWritesItsFiles() throws Exception {
        Path exp = tmp.resolve("tune-bank.yaml");
        Files.writeString(exp, """
                name: tune-bank
                workload: {name: bank, accounts: 10, auditRatio: 0.2}
                tree: {root: {cc: ssi, children: [{cc: none, txns: [audit]},
                       {cc: 2pl, options: {lockTimeout: 10ms, deadlock: wait-die}, txns: [transfer]}]}}
                cluster: {dataServers: 2, coordinators: 2, networkDelay: 20us}
                clients: 16
                warmup: 1s
                duration: 120s
                verify: true
                profiler: {window: 250ms, flush: 10ms}
                autoconf: {analysis: 1s, measure: 1s, settle: 1s, settleWindow: 300ms, rounds: 3, maxRounds: 3,
                           maxIterations: 1, edgesPerIteration: 1, maxCandidates: 2, final: 1s, minScore: 0}
                """);
        Path dir = tmp.resolve("out");
        RunCommandTest.Run r = RunCommandTest.run("tune", exp.toString(), "--out", dir.toString(), "--dump",
                tmp.resolve("dump").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        java.util.List<String> accounts = Files.readAllLines(tmp.resolve("dump/account.csv"));
        assertEquals("key0,balance", accounts.get(0));
        assertEquals(10 * org.tebaldi.bench.workload.bank.BankWorkload.INITIAL_BALANCE, accounts.stream().skip(1)
                .mapToLong(l -> Long.parseLong(l.split(",")[1])).sum(), "the bank's total, from the dump after tuning");
        List<String> tune = r.out().lines().filter(l -> l.startsWith("tune ")).toList();
        assertTrue(tune.get(0).contains("tuning from ssi{none[audit],2pl[transfer]}"), r.out());
        assertTrue(tune.stream().anyMatch(l -> l.contains("iteration 1: bottleneck transfer–transfer")), r.out());
        assertTrue(tune.stream().anyMatch(l -> l.contains("candidate 1/")), r.out());
        // interleaved windows A B A B A B A, each after settle detection, and a gain interval with a verdict
        assertTrue(tune.stream().anyMatch(l -> l.matches(".*windows \\(A incumbent, B candidate, txn/s\\): A [0-9,]+ B "
                + "[0-9,]+ \\(settled \\d+ ms(, gave up)?\\) A .*")), r.out());
        assertTrue(tune.stream().anyMatch(l -> l.matches(".*gain [+-][0-9.]+% \\[[+-][0-9.]+%, [+-][0-9.]+%\\] -> "
                + "(better|worse|no significant gain)")), r.out());
        assertTrue(tune.stream().anyMatch(l -> l.contains("decision: ")), r.out());
        assertTrue(tune.stream().anyMatch(l -> l.startsWith("tune  final tree ")), r.out());
        assertTrue(r.out().contains("serializability: serializable"), r.out());

        JsonNode t = new ObjectMapper().readTree(Files.readString(dir.resolve("tuning.json")));
        assertEquals(1, t.get("iterations").size(), t.toString());
        assertTrue(t.get("finalTxnPerSec").doubleValue() > 0, t.toString());
        assertTrue(t.get("swaps").intValue() >= 2, "a candidate in and the current tree back: " + t);
        List<String> swaps = Files.readAllLines(dir.resolve("reconfigurations.csv"));
        assertEquals(t.get("swaps").intValue() + 1, swaps.size(), swaps.toString());
        assertTrue(swaps.get(1).matches("\\d+,\\d+,(online-update|partial-restart),.*"), swaps.get(1));
        List<String> its = Files.readAllLines(dir.resolve("iterations.csv"));
        assertTrue(its.size() >= 2 && its.get(1).startsWith("1,\"transfer–transfer\""), its.toString());
        assertTrue(its.get(0).contains(",txnPerSec,gain,gainLow,gainHigh,confidence,verdict,rejected,"), its.get(0));
        assertTrue(its.stream().skip(1).anyMatch(l -> l.matches(
                ".*,-?[0-9.]+,-?[0-9.]+,-?[0-9.]+,0\\.9,\"(better|worse|no significant gain)\",.*")), its.toString());
        List<String> timeline = Files.readAllLines(dir.resolve("tuning-timeline.csv"));
        assertEquals("tMs,throughput,event", timeline.get(0));
        assertTrue(timeline.stream().anyMatch(l -> l.endsWith("-start") || l.contains("-start ")), timeline::toString);
        assertTrue(Files.readAllLines(dir.resolve("profile.csv")).size() > 2);
        assertTrue(org.tebaldi.bench.report.ChartFiles.isPng(Files.readAllBytes(dir.resolve("tuning-timeline.png"))));
        JsonNode s = new ObjectMapper().readTree(Files.readString(dir.resolve("summary.json")));
        assertTrue(s.get("checks").get("serializable").booleanValue());
        assertTrue(s.get("checks").get("consistency").booleanValue());
        assertTrue(s.get("durationMicros") == null || s.get("durationMicros").longValue() < 120_000_000L);

        // every adopted tree has its diagram beside it (the .svg where Graphviz works), the run its tree.svg
        for (String base : new String[] {"trees/start", "tree"}) {
            assertTrue(Files.readString(dir.resolve(base + ".dot")).startsWith("digraph cc_tree {"), base);
        }
        assertTrue(Files.readString(dir.resolve("trees/start.dot")).contains("<B>ssi</B>"));
        try {
            org.tebaldi.bench.view.Graphviz.dot();
            assertTrue(Files.readString(dir.resolve("trees/start.svg")).contains(">transfer<"));
            assertTrue(Files.readString(dir.resolve("tree.svg")).contains(">audit<"));
        } catch (org.tebaldi.bench.view.Graphviz.Unavailable x) {
            assertTrue(r.out().contains("no .svg"), r.out());
        }

        // the start tree file runs again as a tree of an experiment
        Path start = dir.resolve("trees/start.yaml");
        RunCommandTest.Run again = RunCommandTest.run("run", exp.toString(), "--set", "tree=" + start, "--set",
                "duration=1s", "--set", "warmup=0s", "--out", tmp.resolve("again").toString());
        assertEquals(0, again.code(), again.out() + again.err());
    }

    @Test
    void theDaemonStaysOnUntilTheRunsDurationEnds() throws Exception {
        Path exp = tmp.resolve("daemon-bank.yaml");
        Files.writeString(exp, """
                name: daemon-bank
                workload: {name: bank, accounts: 1000}
                tree: {root: {cc: 2pl, txns: [transfer, audit]}}
                cluster: {dataServers: 1, coordinators: 1}
                clients: 4
                warmup: 1s
                duration: 9s
                verify: false
                profiler: {window: 250ms, flush: 10ms}
                autoconf: {analysis: 500ms, measure: 500ms, minScore: 1e9, daemon: true}
                """);
        Path dir = tmp.resolve("daemon");
        RunCommandTest.Run r = RunCommandTest.run("tune", exp.toString(), "--out", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("the daemon stays on until the run's duration ends"), r.out());
        assertTrue(r.out().contains("daemon: watching 2pl[transfer,audit], reference "), r.out());
        JsonNode t = new ObjectMapper().readTree(Files.readString(dir.resolve("tuning.json")));
        assertTrue(t.get("outcome").textValue().startsWith("daemon stayed on until the run's duration ended"),
                t.toString());
        assertEquals(0, t.get("swaps").intValue(), t.toString());
        assertTrue(t.get("reentries").isArray(), t.toString());
    }

    @Test
    void badAutoconfSettingsAreOneClearMessage() throws Exception {
        Path exp = tmp.resolve("bad.yaml");
        Files.writeString(exp, """
                name: bad
                workload: {name: bank, accounts: 10}
                tree: {root: {cc: 2pl, txns: [transfer, audit]}}
                clients: 2
                duration: 1s
                autoconf: {protocol: sometimes}
                """);
        RunCommandTest.Run r = RunCommandTest.run("tune", exp.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("autoconf.protocol") && r.err().contains("online"), r.err());
        assertTrue(!Files.exists(tmp.resolve("o")));
        Files.writeString(exp, Files.readString(exp).replace("{protocol: sometimes}", "{mechanisms: [rp, calvin]}"));
        r = RunCommandTest.run("tune", exp.toString());
        assertEquals(ExitCodes.CONFIG, r.code());
        assertTrue(r.err().contains("autoconf.mechanisms[1]") && r.err().contains("calvin"), r.err());
        Files.writeString(exp, Files.readString(exp).replace("{mechanisms: [rp, calvin]}", "{measur: 2s}"));
        r = RunCommandTest.run("tune", exp.toString());
        assertEquals(ExitCodes.CONFIG, r.code());
        assertTrue(r.err().contains("measure"), "suggests the closest key: " + r.err());
        for (String[] bad : new String[][] {{"{rounds: 2}", "autoconf.rounds"}, {"{measure: 250ms}",
                "autoconf.measure"}, {"{rounds: 4, maxRounds: 3}", "autoconf.maxRounds"},
                {"{confidence: 1.5}", "autoconf.confidence"}, {"{settleWindow: 200ms}", "autoconf.settleWindow"}}) {
            Files.writeString(exp, Files.readString(exp).replaceAll("autoconf: \\{.*}", "autoconf: " + bad[0]));
            r = RunCommandTest.run("tune", exp.toString());
            assertEquals(ExitCodes.CONFIG, r.code(), bad[0]);
            assertTrue(r.err().contains(bad[1]) && r.err().lines().count() <= 3, bad[0] + ": " + r.err());
        }
        Files.writeString(exp, Files.readString(exp).replaceAll("autoconf: \\{.*}", "profiler: {window: -1s}"));
        r = RunCommandTest.run("run", exp.toString());
        assertEquals(ExitCodes.CONFIG, r.code());
        assertTrue(r.err().contains("profiler.window"), r.err());
    }
}
