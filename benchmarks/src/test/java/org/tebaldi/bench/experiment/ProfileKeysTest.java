package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.tree.CcNode;

/**
 * The profile mechanism and the keys it brings (docs/experiments.md, "Writing an experiment"; docs/simulation.md, "The
 * dissertation's setup"): {@code profile:} applies a file's keys under the experiment's own, {@code --set} and the
 * experiment win, the resolved config shows what was used, and every new key — {@code profile}, {@code treeOptions},
 * {@code retry.byMechanism}, {@code workload.execution}, {@code workload.roundTrips} — rejects bad input with one
 * message naming the file (the profile's own where the value came from it), place and fix.
 */
class ProfileKeysTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String PROFILE = """
            workload: {roundTrips: per-operation}
            treeOptions:
              2pl: {deadlock: timeout, lockTimeout: 30ms}
            retry: {backoff: 0us, maxBackoff: 0us, byMechanism: {ssi: 5ms}}
            clients: 9
            """;

    @TempDir
    Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
        fx.write("config/profiles/test.yaml", PROFILE);
    }

    private String error(String yaml, String... sets) {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(yaml, sets));
        return e.getMessage().replace(tmp.toString(), "<dir>");
    }

    private static String bank(String replace, String with) {
        String s = ExperimentFixture.BANK.replace(replace, with);
        if (s.equals(ExperimentFixture.BANK)) {
            throw new IllegalArgumentException("no '" + replace + "' in the fixture");
        }
        return s;
    }

    @Test
    void theProfileAppliesUnderTheExperimentsKeys() {
        Experiment e = fx.load(ExperimentFixture.BANK + "profile: test\n");
        assertEquals("test", e.profile());
        assertEquals(4, e.clients(), "the experiment's clients win");
        assertEquals(0, e.retry().backoffMicros());
        assertEquals(Map.of("ssi", 5_000L), e.retry().byMechanismMicros());
        assertEquals("per-operation", e.workloadOptions().get("roundTrips"));
        assertEquals("timeout", e.tree().tree().root().option("deadlock", "?"), "over the tree file's wait-die");
        assertEquals(30_000, e.tree().tree().root().durationOption("lockTimeout", 0));
        Experiment none = fx.load(ExperimentFixture.BANK);
        assertNull(none.profile());
        assertEquals(1_000, none.retry().backoffMicros());
        assertEquals("wait-die", none.tree().tree().root().option("deadlock", "?"), "no profile: the tree file's");
    }

    @Test
    void setOverridesWinAndCanTurnTheProfileOnOrOff() {
        Experiment e = fx.load(bank("clients: 4\n", ""), "profile=test", "retry.byMechanism.ssi=1ms",
                "treeOptions.2pl.deadlock=wait-die");
        assertEquals(9, e.clients(), "a key the experiment lacks comes from the profile");
        assertEquals(Map.of("ssi", 1_000L), e.retry().byMechanismMicros());
        assertEquals("wait-die", e.tree().tree().root().option("deadlock", "?"));
        assertEquals(30_000, e.tree().tree().root().durationOption("lockTimeout", 0), "the rest of the profile's");
        Experiment off = fx.load(ExperimentFixture.BANK + "profile: test\n", "profile=none");
        assertNull(off.profile());
        assertEquals(1_000, off.retry().backoffMicros());
    }

    @Test
    void theResolvedConfigShowsTheValuesUsed() {
        ObjectNode c = ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK + "profile: test\n"));
        assertEquals("test", c.get("profile").asText());
        assertEquals("timeout", c.at("/treeOptions/2pl/deadlock").asText());
        assertEquals("30ms", c.at("/treeOptions/2pl/lockTimeout").asText());
        assertEquals("5ms", c.at("/retry/byMechanism/ssi").asText());
        assertEquals("0us", c.at("/retry/backoff").asText());
        assertEquals("per-operation", c.at("/workload/roundTrips").asText());
        assertEquals("procedures", c.at("/workload/execution").asText());
        assertTrue(c.get("treeYaml").asText().contains("deadlock: timeout"), c.get("treeYaml").asText());
        ObjectNode plain = ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK));
        assertEquals("none", plain.get("profile").asText());
        assertTrue(plain.get("treeOptions").isEmpty());
        assertTrue(plain.at("/retry/byMechanism").isEmpty());
    }

    @Test
    void theProfileCanBeSwept() {
        List<SweepPoint> ps = ExperimentLoader.loadSweep(List.of(fx.write("experiments/s.yaml",
                bank("clients: 4\n", "clients: 7\n") + "profile: [none, test]\n")), List.of(), tmp).points();
        assertEquals(2, ps.size());
        assertEquals(1_000, ps.get(0).experiment().retry().backoffMicros());
        assertEquals(0, ps.get(1).experiment().retry().backoffMicros());
    }

    @Test
    void theShippedDissertationProfileLoadsWithEveryFigure() {
        Experiment e = ExperimentLoader.load(ROOT.resolve("config/experiments/dissertation/fig5-11-2pl.yaml"),
                List.of(), ROOT);
        assertEquals("dissertation", e.profile());
        assertEquals(2000, e.clients());
        assertTrue(e.durability().enabled());
        assertEquals("simulated", e.durability().store());
        assertEquals(Map.of("ssi", 5_000L), e.retry().byMechanismMicros());
        assertEquals("timeout", e.tree().tree().root().option("deadlock", "?"));
        Experiment three = ExperimentLoader.load(ROOT.resolve("config/experiments/dissertation/fig5-11-3layer.yaml"),
                List.of(), ROOT);
        CcNode twoPl = three.tree().tree().nodes().stream().filter(n -> n.mechanism().equals("2pl")).findFirst()
                .orElseThrow();
        assertEquals("timeout", twoPl.option("deadlock", "?"), "every 2pl node of the tree, not only a root");
        Experiment without = ExperimentLoader.load(ROOT.resolve("config/experiments/dissertation/fig5-11-2pl.yaml"),
                List.of("profile=none", "clients=2000"), ROOT);
        assertEquals("wait-die", without.tree().tree().root().option("deadlock", "?"));
        assertTrue(!without.durability().enabled());
    }

    @Test
    void everyDissertationExperimentLoads() throws Exception {
        List<Path> files;
        try (var s = java.nio.file.Files.list(ROOT.resolve("config/experiments/dissertation"))) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(files.size() >= 8, files.toString());
        for (Path f : files) {
            for (SweepPoint p : ExperimentLoader.loadSweep(List.of(f), List.of(), ROOT).points()) {
                Experiment e = p.experiment();
                assertEquals("dissertation", e.profile(), f + " " + p.describe());
                assertTrue(e.cluster().simulated(), f.toString());
                assertTrue(e.tree().warnings().isEmpty(), f + " " + p.describe() + ": " + e.tree().warnings());
                boolean chapter4 = f.getFileName().toString().startsWith("fig4-");
                assertEquals(chapter4 ? "interactive" : "procedures", e.workloadOptions().get("execution"),
                        f.toString());
                assertEquals(!chapter4, e.durability().enabled(), f + ": Chapter 4 ran without durability");
            }
        }
    }

    @Test
    void badProfiles() {
        assertEquals("<dir>/experiments/x.yaml:8: profile: no profile 'tset' (looked for tset.yaml in "
                + "config/profiles under the working directory and the experiment's folders). Fix: use one of none, "
                + "test", error(ExperimentFixture.BANK + "profile: tset\n"));
        assertEquals("<dir>/experiments/x.yaml:8: profile: expected a profile name or a profile file, found 3. Fix: "
                + "write e.g. profile: dissertation (config/profiles/dissertation.yaml), or profile: none",
                error(ExperimentFixture.BANK + "profile: 3\n"));
        assertEquals("<dir>/experiments/x.yaml:8: profile: 'a b' is neither a profile name nor a .yaml file. Fix: "
                + "write a name from config/profiles (e.g. profile: dissertation) or a path ending in .yaml",
                error(ExperimentFixture.BANK + "profile: a b\n"));
        fx.write("config/profiles/named.yaml", "name: x\n");
        assertEquals("<dir>/config/profiles/named.yaml:1: name: a profile cannot set 'name' (it describes a setup "
                + "that applies to many experiments). Fix: set name in the experiment file",
                error(ExperimentFixture.BANK + "profile: named\n"));
        fx.write("config/profiles/listed.yaml", "retry: {backoff: [0us, 1ms]}\n");
        assertEquals("<dir>/config/profiles/listed.yaml:1: retry.backoff: a profile sets one value per key, not a "
                + "list. Fix: write one value; list values to sweep in the experiment file",
                error(ExperimentFixture.BANK + "profile: listed\n"));
        fx.write("config/profiles/typo.yaml", "clientz: 3\n");
        assertTrue(error(ExperimentFixture.BANK + "profile: typo\n").startsWith("<dir>/config/profiles/typo.yaml:1: "
                + "clientz: unknown key 'clientz' (did you mean 'clients'?)"));
        fx.write("config/profiles/wl.yaml", "workload: {name: tpcc}\n");
        assertTrue(error(ExperimentFixture.BANK + "profile: wl\n").contains("workload.name: a profile cannot choose "
                + "the workload"));
    }

    @Test
    void aBadValueFromTheProfileNamesTheProfile() {
        fx.write("config/profiles/bad.yaml", "retry:\n  byMechanism: {ssi: soon}\n");
        assertEquals("<dir>/config/profiles/bad.yaml:2: retry.byMechanism.ssi: 'soon' is not a duration (write e.g. "
                + "50us, 5ms, 10s, 2m). Fix: write e.g. ssi: 5ms", error(ExperimentFixture.BANK + "profile: bad\n"));
        assertTrue(error(ExperimentFixture.BANK + "retry: {backoff: 2ms}\nprofile: test\n")
                .startsWith("<dir>/config/profiles/test.yaml:4: retry.maxBackoff: must be at least backoff (2ms)"),
                "the experiment's backoff against the profile's maxBackoff: the profile's value is named");
    }

    @Test
    void badTreeOptions() {
        assertEquals("<dir>/experiments/x.yaml:8: treeOptions.2p1: unknown mechanism '2p1' (did you mean '2pl'?). "
                        + "Fix: use one of " + String.join(", ", org.tebaldi.core.cc.Mechanisms.all().keySet()),
                error(ExperimentFixture.BANK + "treeOptions: {2p1: {deadlock: timeout}}\n"));
        assertEquals("<dir>/experiments/x.yaml:8: treeOptions.2pl.deadlock: option 'deadlock' must be 'timeout', "
                + "'wait-die', 'no-wait', 'detect' or 'wound-wait', not 'sometimes'. Fix: fix the value, or remove it to keep the tree files' "
                + "options",
                error(ExperimentFixture.BANK + "treeOptions: {2pl: {deadlock: sometimes}}\n"));
        assertEquals("<dir>/experiments/x.yaml:8: treeOptions: expected a mapping of mechanism to options, found "
                + "'2pl'. Fix: write e.g. treeOptions: {2pl: {deadlock: timeout, lockTimeout: 100ms}}",
                error(ExperimentFixture.BANK + "treeOptions: 2pl\n"));
        assertTrue(error(ExperimentFixture.BANK + "treeOptions: {2pl: timeout}\n")
                .contains("treeOptions.2pl: expected the options of every 2pl node as a mapping"));
        assertTrue(error(ExperimentFixture.BANK + "treeOptions: {2pl: {lockTimeout: {a: 1}}}\n")
                .contains("treeOptions.2pl.lockTimeout: expected a value (text, number or boolean)"));
        assertTrue(error(ExperimentFixture.BANK + "treeOptions: {ssi: {nonsense: 1}}\n")
                        .contains("treeOptions.ssi.nonsense: option 'nonsense' is unknown to ssi"),
                "a mechanism absent from the tree still has its options checked");
        assertTrue(error(ExperimentFixture.BANK, "treeOptions.2pl.lockTimeout=-1ms").startsWith("--set "
                + "treeOptions.2pl.lockTimeout=-1ms: treeOptions.2pl.lockTimeout: option 'lockTimeout'"));
        assertTrue(error(ExperimentFixture.BANK, "treeOptions.2pl.deadlock.x=1").contains("tree options are single "
                + "values"));
    }

    @Test
    void badRetryByMechanism() {
        assertEquals("<dir>/experiments/x.yaml:8: retry.byMechanism.sssi: unknown mechanism 'sssi' (did you mean "
                        + "'ssi'?). Fix: use one of "
                        + String.join(", ", org.tebaldi.core.cc.Mechanisms.all().keySet()),
                error(ExperimentFixture.BANK + "retry: {byMechanism: {sssi: 5ms}}\n"));
        assertEquals("<dir>/experiments/x.yaml:8: retry.byMechanism.ssi: must not be negative, found '-5ms'. Fix: "
                + "write e.g. ssi: 5ms", error(ExperimentFixture.BANK + "retry: {byMechanism: {ssi: -5ms}}\n"));
        assertTrue(error(ExperimentFixture.BANK + "retry: {byMechanism: 5ms}\n").contains("retry.byMechanism: "
                + "expected a mapping"));
        assertEquals("--set retry.byMechanism.ssi.x=1: retry.byMechanism.ssi.x: a mechanism's back-off is a single "
                + "value. Fix: write --set retry.byMechanism.ssi=5ms", error(ExperimentFixture.BANK,
                "retry.byMechanism.ssi.x=1"));
    }

    @Test
    void badExecutionKeys() {
        assertEquals("<dir>/experiments/x.yaml:2: workload.execution: unknown value 'stored' (did you mean "
                + "'procedures'?). Fix: use one of procedures, interactive",
                error(bank("{name: bank, accounts: 20}", "{name: bank, accounts: 20, execution: stored}"))
                        .replace("unknown value 'stored'.", "unknown value 'stored' (did you mean 'procedures'?)."));
        assertTrue(error(bank("{name: bank, accounts: 20}", "{name: bank, accounts: 20, roundTrips: one}"))
                .contains("workload.roundTrips: unknown value 'one'"));
        assertEquals("<dir>/experiments/x.yaml:2: workload.batchedReads: batchedReads: true sends reads together, "
                + "roundTrips: per-operation one per round trip. Fix: remove batchedReads (per-operation reads one by "
                + "one), or use roundTrips: batched", error("""
                name: t
                workload: {name: tpcc, warehouses: 1, items: 100, batchedReads: true, roundTrips: per-operation}
                tree: ../trees/bank.yaml
                clients: 1
                duration: 1s
                """));
    }

    @Test
    void durabilityStoresFollowTheMode() {
        String sim = bank("cluster: {dataServers: 2, coordinators: 2}", "cluster: {mode: simulated, simulation: "
                + "{costs: " + ROOT.resolve("config/costs/this-machine.yaml") + "}}");
        assertEquals("simulated", fx.load(sim + "durability: {enabled: true}\n").durability().store());
        assertTrue(error(sim + "durability: {enabled: true, store: rocksdb}\n").contains("durability.store: the "
                + "simulated cluster models its stores"));
        assertTrue(error(ExperimentFixture.BANK + "durability: {enabled: true, store: simulated}\n")
                .contains("durability.store: store: simulated is the simulated cluster's modelled store"));
        assertTrue(error(sim + "durability: {enabled: true, dir: d}\n").contains("durability.dir: the simulated "
                + "cluster's stores keep nothing on disk"));
    }
}
