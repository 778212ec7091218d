package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.workload.bank.BankWorkload;
import org.tebaldi.core.config.ConfigException;

/** Sweeps: lists of values expand to every combination, with labels and directories; bad sweeps get one message. */
class SweepExpansionTest {
    @TempDir
    Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
        fx.write("trees/bank-ssi.yaml", "root: {cc: ssi, txns: [transfer, audit]}\n");
    }

    private Sweep sweep(String yaml, String... sets) {
        Path p = fx.write("experiments/x.yaml", yaml);
        return ExperimentLoader.loadSweep(List.of(p), List.of(sets), tmp);
    }

    private static Map<String, String> values(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void aPlainExperimentIsNoSweep() {
        Sweep s = sweep(ExperimentFixture.BANK);
        assertFalse(s.isSweep());
        assertEquals(List.of(), s.keys());
        assertEquals(4, s.single().clients());
        assertEquals("", s.points().get(0).dir());
    }

    @Test
    void expandsTheCartesianProductLastFieldFastest() {
        Sweep s = sweep(ExperimentFixture.BANK.replace("tree: ../trees/bank.yaml",
                "tree: [../trees/bank.yaml, ../trees/bank-ssi.yaml]").replace("clients: 4", "clients: [2, 8, 32]"));
        assertTrue(s.isSweep());
        assertEquals(List.of("tree", "clients"), s.keys());
        assertEquals(6, s.points().size());
        List<Map<String, String>> expected = List.of(values("tree", "bank", "clients", "2"),
                values("tree", "bank", "clients", "8"), values("tree", "bank", "clients", "32"),
                values("tree", "bank-ssi", "clients", "2"), values("tree", "bank-ssi", "clients", "8"),
                values("tree", "bank-ssi", "clients", "32"));
        for (int i = 0; i < 6; i++) {
            SweepPoint p = s.points().get(i);
            assertEquals(i + 1, p.index());
            assertEquals(expected.get(i), p.values());
            assertEquals(Integer.parseInt(expected.get(i).get("clients")), p.experiment().clients());
            String mech = expected.get(i).get("tree").equals("bank") ? "2pl" : "ssi";
            assertEquals(mech, p.experiment().tree().tree().root().mechanism());
        }
        assertEquals("01_tree-bank_clients-2", s.points().get(0).dir());
        assertEquals("06_tree-bank-ssi_clients-32", s.points().get(5).dir());
        assertEquals("tree=bank-ssi clients=32", s.points().get(5).describe());
        assertEquals(6 * 3_000_000L, s.plannedMicros());
    }

    @Test
    void sweepsSectionFieldsAndOverridesWithLists() {
        Sweep s = sweep(ExperimentFixture.BANK.replace("accounts: 20", "accounts: [20, 40]"),
                "cluster.networkDelay=[0us, 50us]");
        assertEquals(List.of("workload.accounts", "cluster.networkDelay"), s.keys());
        assertEquals(4, s.points().size());
        SweepPoint last = s.points().get(3);
        assertEquals(values("workload.accounts", "40", "cluster.networkDelay", "50us"), last.values());
        assertEquals(40, ((BankWorkload) last.experiment().workload()).accounts());
        assertEquals(50, last.experiment().cluster().networkDelayMicros());
        assertEquals("04_accounts-40_networkDelay-50us", last.dir());

        Sweep c = sweep(ExperimentFixture.BANK, "clients=[1,3]");
        assertEquals(List.of(1, 3), c.points().stream().map(p -> p.experiment().clients()).toList());
    }

    @Test
    void treesFromTheCommandLineResolveAgainstTheWorkingDirectory() {
        Sweep s = sweep(ExperimentFixture.BANK, "tree=[trees/bank.yaml, trees/bank-ssi.yaml]");
        assertEquals(List.of("bank", "bank-ssi"), s.points().stream().map(p -> p.values().get("tree")).toList());
        assertEquals(tmp.resolve("trees/bank-ssi.yaml"), s.points().get(1).experiment().treeRef().file());
    }

    @Test
    void inlineTreesAreLabelledByPosition() {
        Sweep s = sweep(ExperimentFixture.BANK.replace("tree: ../trees/bank.yaml", """
                tree:
                  - {root: {cc: 2pl, txns: [transfer, audit]}}
                  - {root: {cc: tso, txns: [transfer, audit]}}"""));
        assertEquals(List.of("inline-1", "inline-2"), s.points().stream().map(p -> p.values().get("tree")).toList());
        assertEquals("tso", s.points().get(1).experiment().tree().tree().root().mechanism());
    }

    @Test
    void severalFilesSweepByExperimentName() {
        Path a = fx.write("experiments/a.yaml", ExperimentFixture.BANK.replace("bank-test", "bank-a"));
        Path b = fx.write("experiments/b.yaml", ExperimentFixture.BANK.replace("bank-test", "bank-b")
                .replace("clients: 4", "clients: [1, 2]"));
        Sweep s = ExperimentLoader.loadSweep(List.of(a, b), List.of(), tmp);
        assertEquals(List.of("experiment", "clients"), s.keys());
        assertEquals(List.of(values("experiment", "bank-a"), values("experiment", "bank-b", "clients", "1"),
                values("experiment", "bank-b", "clients", "2")), s.points().stream().map(SweepPoint::values).toList());
        assertEquals("01_experiment-bank-a", s.points().get(0).dir());

        Path c = fx.write("experiments/c.yaml", ExperimentFixture.BANK.replace("bank-test", "bank-a"));
        ConfigException x = assertThrows(ConfigException.class,
                () -> ExperimentLoader.loadSweep(List.of(a, c), List.of(), tmp));
        assertTrue(x.getMessage().startsWith(c + ":1: name: experiment name 'bank-a' is also the name in " + a),
                x.getMessage());
    }

    @Test
    void aSingleExperimentLoaderRefusesASweep() {
        ConfigException x = assertThrows(ConfigException.class,
                () -> fx.load(ExperimentFixture.BANK.replace("clients: 4", "clients: [1, 2]")));
        assertEquals(fx.file() + ":5: clients: lists values to sweep, but a single experiment was expected. Fix: "
                + "run it with scripts/tebaldi run (which runs every point), or write one value", x.getMessage());
    }

    private String error(String yaml, String... sets) {
        return assertThrows(ConfigException.class, () -> sweep(yaml, sets)).getMessage();
    }

    @Test
    void badSweepsGetOneMessageAtTheirPlace() {
        String f = fx.file();
        assertEquals(f + ":5: clients: an empty list sweeps no value. Fix: list at least one value, e.g. clients: "
                + "[50, 200, 800], or write a single value", error(ExperimentFixture.BANK.replace("clients: 4",
                "clients: []")));
        assertEquals(f + ":5: clients[1]: a swept value cannot itself be a list. Fix: write the values as one flat "
                + "list, e.g. clients: [50, 200, 800]", error(ExperimentFixture.BANK.replace("clients: 4",
                "clients: [1, [2, 3]]")));
        assertEquals(f + ":5: clients[2]: value 1 is listed twice (also clients[0]). Fix: list each value once",
                error(ExperimentFixture.BANK.replace("clients: 4", "clients: [1, 2, 1]")));
        assertTrue(error(ExperimentFixture.BANK.replace("name: bank-test", "name: [a, b]"))
                .startsWith(f + ":1: name: 'name' takes one value, not a list (it cannot be swept). Fix: "));
        assertTrue(error(ExperimentFixture.BANK.replace("workload: {name: bank, accounts: 20}",
                "workload: [{name: bank}]")).startsWith(f + ":2: workload: the whole 'workload' section cannot be a "
                + "list. Fix: sweep its fields instead, e.g. workload: {name: tpcc, warehouses: [1, 10]}"));
        assertTrue(error(ExperimentFixture.BANK.replace("name: bank,", "name: [bank, tpcc],"))
                .startsWith(f + ":2: workload.name: the workload's name takes one value, not a list. Fix: "));
        assertEquals("--set clients=[]: clients: an empty list sweeps no value. Fix: list at least one value, e.g. "
                + "clients: [50, 200, 800], or write a single value", error(ExperimentFixture.BANK, "clients=[]"));
        assertTrue(error(ExperimentFixture.BANK.replace("clients: 4", "clients: [1, 2]")
                .replace("accounts: 20", "accounts: [" + numbers(5_001) + "]"))
                .contains("the sweep has more than 10000 points"));
    }

    @Test
    void everyPointIsValidatedBeforeAnythingRuns() {
        assertEquals(fx.file() + ":5: clients: must be at least 1, found 0. Fix: write e.g. clients: 50",
                error(ExperimentFixture.BANK.replace("clients: 4", "clients: [2, 0]")));
        assertTrue(error(ExperimentFixture.BANK, "tree=[trees/bank.yaml, trees/nope.yaml]")
                .startsWith("--set tree=[trees/bank.yaml, trees/nope.yaml]: tree: tree file 'trees/nope.yaml' not "
                        + "found"));
    }

    private static String numbers(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            b.append(i == 1 ? "" : ", ").append(i);
        }
        return b.toString();
    }
}
