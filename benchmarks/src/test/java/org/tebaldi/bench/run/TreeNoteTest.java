package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentFixture;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.HandlerCost;
import org.tebaldi.core.runtime.cost.TreeCosts;
import org.tebaldi.core.tree.CcTree;

/**
 * A simulated run charges its tree's own section of the cost table and says so ({@link
 * SimulatedExperimentRun#treeNote}, {@code SimulationSpec.costsFor}; docs/simulation.md, "Costs by tree").
 */
class TreeNoteTest {
    @TempDir
    Path tmp;

    private Experiment simulated() {
        return new ExperimentFixture(tmp).load(ExperimentFixture.BANK.replace("cluster: {dataServers: 2, "
                + "coordinators: 2}", "cluster: {mode: simulated, simulation: {costs: "
                + Path.of("../config/costs/verify-off.yaml").toAbsolutePath() + ", machines: 2}}"));
    }

    private static CostTable table(TreeCosts... sections) {
        return new CostTable("lab", Map.of(), 1.1, Map.of(), 0, 0, Map.of(), 128, Map.of(),
                Map.of("ds ExecRequest", new HandlerCost(10, 0, 0, 500)), Map.of(), null).withTrees(List.of(sections));
    }

    private static TreeCosts section(String label, String tree, String shape, double overhead) {
        return new TreeCosts("bank", tree, shape, List.of(label + "@16"), overhead, 0,
                Map.of("ds ExecRequest", new HandlerCost(40, 0, 0, 500)));
    }

    @Test
    void aRunOfACalibratedTreeIsChargedItsSectionAndSaysSo() {
        Experiment e = simulated();
        CcTree tree = e.tree().tree();
        CostTable t = table(section("bank-2pl", tree.canonical(), tree.shape(), 1.7),
                section("bank-ssi", "ssi[audit, transfer]", "ssi[audit, transfer]", 1.2));
        assertEquals("costs: the tree's own section of the cost table (bank-2pl, fitted from bank-2pl@16)",
                SimulatedExperimentRun.treeNote(t, "bank", tree));
        org.tebaldi.bench.experiment.SimulationSpec s = e.cluster().simulation();
        org.tebaldi.bench.experiment.SimulationSpec own = new org.tebaldi.bench.experiment.SimulationSpec(s.machines(),
                s.coresPerMachine(), s.latencyMinMicros(), s.latencyMaxMicros(), s.localLatencyMicros(),
                s.bandwidthGbps(), s.costsFile(), t, s.costMode(), s.serviceMachine(), s.embedded(), s.groups(),
                s.groupLatencyMinMicros(), s.groupLatencyMaxMicros(), s.tsOpsPerSecond());
        CostTable charged = own.hardware(2, 2, "bank", tree, false).costs();
        assertEquals(40, charged.cost("ds ExecRequest").baseMicros(), 1e-9);
        assertEquals(1.7, charged.overhead(), 1e-9);
        assertEquals(10, own.hardware(2, 2, "bank").costs().cost("ds ExecRequest").baseMicros(), 1e-9,
                "no tree given: the workload's costs");
    }

    @Test
    void aTreeWithOtherOptionsIsChargedTheSectionOfItsShapeAndToldSo() {
        CcTree tree = simulated().tree().tree();
        CostTable t = table(section("bank-2pl", "2pl{deadlock=no-wait}[audit, transfer]", tree.shape(), 1.7));
        String note = SimulatedExperimentRun.treeNote(t, "bank", tree);
        assertTrue(note.endsWith("; same shape, but this run's node options differ from the calibrated tree's"), note);
    }

    @Test
    void anUncalibratedTreeOfACalibratedWorkloadGetsANoteAndOtherWorkloadsNone() {
        CcTree tree = simulated().tree().tree();
        CostTable t = table(section("bank-ssi", "ssi[audit, transfer]", "ssi[audit, transfer]", 1.2));
        String note = SimulatedExperimentRun.treeNote(t, "bank", tree);
        assertTrue(note.startsWith("NOTE: cost table 'lab' has sections for other bank trees but none for this one"),
                note);
        assertNull(SimulatedExperimentRun.treeNote(t, "tpcc", tree));
        assertNull(SimulatedExperimentRun.treeNote(table(), "bank", tree));
    }
}
