package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.CompositionRules;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;

/** The files shipped under {@code config/} load and validate (every point of a sweep file). */
class ShippedConfigTest {
    private static final Path CONFIG = Path.of("../config");

    @Test
    void everyShippedExperimentLoads() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(CONFIG.resolve("experiments"))) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        for (Path f : files) {
            for (SweepPoint p : ExperimentLoader.loadSweep(List.of(f), List.of(), Path.of("")).points()) {
                Experiment e = p.experiment();
                if (e.target().isPostgresql()) {
                    assertTrue(e.tree() == null || e.tree().warnings().isEmpty(), f + " " + p.describe());
                    continue;
                }
                assertTrue(e.tree().warnings().isEmpty(), f + " " + p.describe() + ": " + e.tree().warnings());
            }
        }
    }

    @Test
    void bankExperimentIsShortAndVerified() {
        Experiment e = ExperimentLoader.load(CONFIG.resolve("experiments/bank-2pl.yaml"), List.of(), Path.of(""));
        assertEquals("bank-2pl", e.name());
        assertEquals(WarmupSpec.fixed(1_000_000), e.warmup());
        assertEquals(5_000_000, e.durationMicros());
        assertTrue(e.verify());
        assertEquals(CONFIG.resolve("trees/bank-2pl.yaml").normalize(), e.treeRef().file());
    }

    @Test
    void monolithicTwoPlTreeCoversTheTpccTypes() {
        CcTree t = TreeLoader.load(CONFIG.resolve("trees/2pl.yaml"),
                new TreeContext(null, Mechanisms.all(), CompositionRules.standard()));
        assertEquals("2pl", t.root().mechanism());
        assertTrue(t.root().isLeaf());
        assertEquals(List.of("new_order", "payment", "delivery", "order_status", "stock_level"), t.root().txns());
    }
}
