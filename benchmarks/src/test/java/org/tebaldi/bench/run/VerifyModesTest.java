package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentFixture;
import org.tebaldi.bench.experiment.VerifyMode;

/**
 * Every verification mode ({@link VerifyMode}: after, process, streamed) on an embedded bank run: under 2PL the
 * history is serializable and the spill is gone afterwards; under the test-only {@code nocc} tree (no concurrency
 * control at all) every mode reports the anomalies — the negative control — and a spill is kept for a second look.
 */
class VerifyModesTest {
    @TempDir
    Path tmp;

    private static final String NOCC_TREE = """
            root:
              cc: nocc
              txns: [transfer, audit]
            """;

    private RunResult run(String mode, boolean nocc, Path runDir, List<String> phases) throws Exception {
        ExperimentFixture fx = new ExperimentFixture(tmp);
        if (nocc) {
            fx.write("trees/bank.yaml", NOCC_TREE);
        }
        Experiment e = fx.load(ExperimentFixture.BANK.replace("clients: 4", "clients: 12")
                .replace("warmup: 1s", "warmup: 0s").replace("duration: 2s", "duration: 1s") + "verify: " + mode + "\n");
        assertEquals(VerifyMode.valueOf(mode.toUpperCase(java.util.Locale.ROOT)), e.verification());
        Files.createDirectories(runDir);
        return new ExperimentRun(e, new RunListener() {
            @Override
            public void phase(String what) {
                phases.add(what);
            }
        }).inDirectory(runDir).run();
    }

    @ParameterizedTest
    @ValueSource(strings = {"after", "process", "streamed"})
    void aSerializableRunIsReportedSoAndLeavesNoSpill(String mode) throws Exception {
        List<String> phases = new ArrayList<>();
        Path dir = tmp.resolve("run-" + mode);
        RunResult r = run(mode, false, dir, phases);
        assertEquals(Boolean.TRUE, r.checks().serializable(), r.checks().report());
        assertEquals(Boolean.TRUE, r.checks().consistent());
        assertTrue(r.checks().report().contains(" committed"), r.checks().report());
        String line = phases.stream().filter(p -> p.startsWith("history checked")).findFirst().orElse(null);
        assertNotNull(line, phases.toString());
        assertTrue(line.contains(switch (mode) {
            case "after" -> "after the run from its spill";
            case "process" -> "by a checker process";
            default -> "while running";
        }), line);
        assertFalse(Files.exists(dir.resolve("history").resolve(org.tebaldi.core.history.HistorySpill.MANIFEST)),
                "a checked spill is deleted");
    }

    @ParameterizedTest
    @ValueSource(strings = {"after", "process", "streamed"})
    void theNegativeControlFailsInEveryMode(String mode) throws Exception {
        List<String> phases = new ArrayList<>();
        Path dir = tmp.resolve("nocc-" + mode);
        RunResult r = run(mode, true, dir, phases);
        assertEquals(Boolean.FALSE, r.checks().serializable(), "no CC, yet serializable: " + r.checks().report());
        assertTrue(r.checks().report().startsWith("NOT serializable"), r.checks().report());
        assertFalse(r.checks().passed());
        if (mode.equals("after")) {
            assertTrue(Files.exists(dir.resolve("history").resolve(org.tebaldi.core.history.HistorySpill.MANIFEST)),
                    "the spill of a failed check is kept: " + phases);
            assertTrue(phases.stream().anyMatch(p -> p.contains("check-history")), phases.toString());
        }
    }
}
