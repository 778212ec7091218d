package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.ExperimentFixture;
import org.tebaldi.core.history.HistorySpill;

/**
 * {@link SimulatedHistory}: a simulated bank run with {@code verify} spills its history during the run, as an
 * embedded one does, and checks it after the run — serializable under 2PL, with the spill deleted; NOT serializable
 * under the test-only {@code nocc} tree (the negative control), with the spill kept and the command to check it
 * again.
 */
class SimulatedHistoryTest {
    static final Path COSTS = Path.of("..").toAbsolutePath().normalize().resolve("config/costs/this-machine.yaml");

    @TempDir
    Path tmp;

    private RunResult run(boolean nocc, List<String> phases) throws Exception {
        ExperimentFixture fx = new ExperimentFixture(tmp);
        if (nocc) {
            fx.write("trees/bank.yaml", "root:\n  cc: nocc\n  txns: [transfer, audit]\n");
        }
        String yaml = ExperimentFixture.BANK.replace("cluster: {dataServers: 2, coordinators: 2}",
                        "cluster: {mode: simulated, dataServers: 2, coordinators: 2, simulation: {machines: 1, "
                                + "coresPerMachine: 2, costs: " + COSTS + "}}")
                .replace("clients: 4", "clients: 12").replace("warmup: 1s", "warmup: 0s")
                .replace("duration: 2s", "duration: 1s") + "verify: true\n";
        return new SimulatedExperimentRun(fx.load(yaml), new RunListener() {
            @Override
            public void phase(String what) {
                phases.add(what);
            }
        }).run();
    }

    @Test
    void aSerializableRunIsCheckedFromItsSpillAfterTheRun() throws Exception {
        List<String> phases = new ArrayList<>();
        RunResult r = run(false, phases);
        assertEquals(Boolean.TRUE, r.checks().serializable(), r.checks().report());
        assertEquals(Boolean.TRUE, r.checks().consistent());
        assertTrue(phases.stream().anyMatch(p -> p.startsWith("history spilled during the simulation and checked after "
                + "it: serializable")), phases.toString());
        assertFalse(phases.stream().anyMatch(p -> p.contains("stays in")), phases.toString());
    }

    @Test
    void theNegativeControlFailsAndKeepsItsSpill() throws Exception {
        List<String> phases = new ArrayList<>();
        RunResult r = run(true, phases);
        assertEquals(Boolean.FALSE, r.checks().serializable(), "no CC, yet serializable: " + r.checks().report());
        assertTrue(r.checks().report().startsWith("NOT serializable"), r.checks().report());
        String kept = phases.stream().filter(p -> p.startsWith("the spilled history stays in ")).findFirst()
                .orElseThrow(() -> new AssertionError(phases.toString()));
        Path dir = Path.of(kept.substring("the spilled history stays in ".length(), kept.indexOf(" (check it again")));
        try {
            assertTrue(Files.exists(dir.resolve(HistorySpill.MANIFEST)), kept);
            assertTrue(kept.contains("scripts/tebaldi check-history " + dir), kept);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
