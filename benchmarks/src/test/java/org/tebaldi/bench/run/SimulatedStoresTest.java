package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.ExperimentFixture;

/**
 * A simulated run closes its data servers' stores once it is checked: their disk tiers (RocksDB, under {@code
 * storage.dir}) stop and are deleted before the run returns — a disk tier still flushing when the JVM exited crashed
 * it after the summary was written (docs/performance.md, "A bounded footprint").
 */
class SimulatedStoresTest {
    @TempDir
    Path tmp;

    @Test
    void theDiskTiersAreClosedAndDeletedWhenTheRunReturns() throws Exception {
        Path st = tmp.resolve("st");
        String yaml = String.format(SimulatedRunTest.EXPERIMENT, SimulatedRunTest.ROOT.resolve(
                "config/trees/tebaldi-3layer.yaml"), SimulatedRunTest.ROOT.resolve("config/costs/this-machine.yaml"), 7)
                + "storage: {memory: 1m, dir: " + st + "}\n";
        RunResult r = new SimulatedExperimentRun(new ExperimentFixture(tmp).load(yaml), new RunListener() { }).run();
        assertTrue(r.checks().passed(), r.checks().report());
        assertTrue(Files.isDirectory(st), "the run spilled rows to its disk tiers under " + st);
        try (Stream<Path> left = Files.list(st)) {
            assertEquals(List.of(), left.toList(), "every disk tier closed and deleted");
        }
    }
}
