package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.Map;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.HostIdentity;

/** {@code tebaldi calibrate} end to end, in-process, on the shipped bank experiment (short runs). */
class CalibrateCommandTest {
    private static final Path BANK = Path.of("../config/experiments/bank-2pl.yaml");

    @TempDir
    Path tmp;

    @Test
    void writesAReadableTableWithHandlerKeysOfEveryRole() {
        Path out = tmp.resolve("costs/bank.yaml");
        RunCommandTest.Run r = RunCommandTest.run("calibrate", "--out", out.toString(), "--warmup", "500ms",
                "--duration", "1s", BANK.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.matches("bank-2pl +[\\d,]+ txn/s  handled +[\\d,]+  handler +"
                + "[\\d,]+ ms  cpu +[\\d,]+ ms  idle +[\\d,]+  late +[\\d.]+ µs  verify after")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("host ") && l.contains("speed probe")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("bank-2pl") && l.contains("JIT warm-up run")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches(" +bank-2pl@16 +[\\d.]+")), "fit check line: " + r.out());
        CostTable t = CostTable.read(out);
        assertEquals("bank", t.name());
        for (String role : List.of("tc ", "ds ", "client ")) {
            assertTrue(t.handlers().keySet().stream().anyMatch(k -> k.startsWith(role)), role + t.handlers());
        }
        assertTrue(t.handlers().containsKey("ds ExecRequest"), t.handlers().toString());
        assertTrue(t.handlers().get("ds ExecRequest").samples() > 0);
        // version collection's ticks are timed under their own kind (a 1 s run has too few of them to keep the key:
        // it is then named among the keys left out)
        assertTrue(t.handlers().containsKey("ds timer/version-gc") || lines.stream().anyMatch(l -> l.startsWith(
                "keys left out, under 100 handlers") && l.contains("ds timer/version-gc (")), r.out());
        assertTrue(t.bytes("ExecRequest") > 9, "frame plus message");
        assertTrue(t.overhead() >= 1);
        assertEquals(List.of("bank-2pl@16"), t.calibration().get("experiments"));
        assertTrue(t.workloads().containsKey("bank"), t.workloads().keySet().toString());
        assertTrue(t.lateMicros() >= 0 && t.wakeMicros() >= 0);
        assertEquals("1s", t.calibration().get("duration"));
        HostIdentity host = t.host().orElseThrow();
        assertEquals(Runtime.getRuntime().availableProcessors(), host.cores());
        assertEquals(HostIdentity.here().cpuModel(), host.cpuModel());
        assertTrue(host.probe().nsPerIteration() > 0);
        assertEquals(Map.of("bank-2pl@16", "after"), t.calibration().get("verify"), "the file's own verify: true");
    }

    @Test
    void verificationCanStillBeSwitchedOff() {
        Path out = tmp.resolve("costs/off.yaml");
        RunCommandTest.Run r = RunCommandTest.run("calibrate", "--out", out.toString(), "--warmup", "200ms",
                "--duration", "500ms", "--set", "verify=false", BANK.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("verify off"), r.out());
        assertEquals(Map.of("bank-2pl@16", "off"), CostTable.read(out).calibration().get("verify"));
    }

    @Test
    void aWorkloadCalibratedUnderTwoTreesGetsASectionPerTreeAndItsRunsAreCheckedAgainstThem() throws Exception {
        Path tree = tmp.resolve("bank-ssi-tree.yaml");
        Files.writeString(tree, "root: {cc: ssi, txns: [transfer, audit]}\n");
        Path ssi = tmp.resolve("bank-ssi.yaml");
        Files.writeString(ssi, Files.readString(BANK).replace("name: bank-2pl", "name: bank-ssi")
                .replace("../trees/bank-2pl.yaml", tree.toString()));
        Path out = tmp.resolve("costs/two.yaml");
        RunCommandTest.Run r = RunCommandTest.run("calibrate", "--out", out.toString(), "--warmup", "200ms",
                "--duration", "500ms", "--set", "verify=false", BANK.toString(), ssi.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        CostTable t = CostTable.read(out);
        assertEquals(List.of("bank-2pl", "bank-ssi"), t.trees().stream().map(c -> c.label()).toList());
        assertEquals(List.of("bank-ssi@16"), t.trees().get(1).experiments());
        assertEquals("ssi[audit, transfer]", t.trees().get(1).tree());
        assertTrue(t.trees().get(0).tree().startsWith("2pl{") && t.trees().get(0).shape().equals("2pl[audit, transfer]"),
                t.trees().get(0).toString());
        assertTrue(t.trees().get(1).handlers().containsKey("ds ExecRequest"), t.trees().get(1).handlers().toString());
        assertEquals("two/bank/bank-ssi", t.forRun("bank", "ssi[audit, transfer]", "ssi[audit, transfer]").name());
        assertTrue(r.out().contains("tree section bank/bank-ssi: "), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches(" +bank-ssi@16 +[\\d.]+  \\(workload's fit alone: [\\d.]+\\)")),
                r.out());
        assertTrue(t.calibration().get("fitCheckByWorkload") instanceof Map<?, ?> m && m.size() == 2,
                t.calibration().toString());
    }

    @Test
    void anExperimentNotInEmbeddedModeIsRejectedBeforeAnythingRuns() throws Exception {
        Path exp = tmp.resolve("proc.yaml");
        Path tree = Path.of("../config/trees/bank-2pl.yaml").toAbsolutePath().normalize();
        Files.writeString(exp, Files.readString(BANK).replace("mode: embedded", "mode: processes")
                .replace("../trees/bank-2pl.yaml", tree.toString()));
        Path out = tmp.resolve("t.yaml");
        RunCommandTest.Run r = RunCommandTest.run("calibrate", "--out", out.toString(), BANK.toString(),
                exp.toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertEquals(exp + ": cluster.mode: calibrate times handlers inside one JVM, so it runs embedded experiments "
                + "only; 'bank-2pl' runs processes. Fix: name an experiment with cluster.mode: embedded",
                r.err().strip());
        assertEquals("", r.out());
        assertFalse(Files.exists(out));
    }

    @Test
    void badInputGivesOneMessageAndWritesNothing() {
        Path out = tmp.resolve("t.yaml");
        RunCommandTest.Run missing = RunCommandTest.run("calibrate", "--out", out.toString(),
                tmp.resolve("nope.yaml").toString());
        assertEquals(ExitCodes.CONFIG, missing.code());
        assertEquals(1, missing.err().strip().lines().count(), missing.err());
        assertTrue(missing.err().contains("nope.yaml"), missing.err());
        RunCommandTest.Run duration = RunCommandTest.run("calibrate", "--out", out.toString(), "--duration", "8 parsecs",
                BANK.toString());
        assertEquals(ExitCodes.CONFIG, duration.code());
        assertTrue(duration.err().startsWith("--duration: '8 parsecs' is not a duration"), duration.err());
        RunCommandTest.Run zero = RunCommandTest.run("calibrate", "--out", out.toString(), "--duration", "0s",
                BANK.toString());
        assertEquals(ExitCodes.CONFIG, zero.code());
        RunCommandTest.Run dir = RunCommandTest.run("calibrate", "--out", tmp.toString(), BANK.toString());
        assertEquals(ExitCodes.CONFIG, dir.code());
        assertTrue(dir.err().startsWith("--out: "), dir.err());
        assertFalse(Files.exists(out));
    }
}
