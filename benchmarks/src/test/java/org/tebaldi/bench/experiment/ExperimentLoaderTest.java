package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.workload.bank.BankWorkload;

/** Parsing experiment files: every key, the defaults, inline trees, and every override form. */
class ExperimentLoaderTest {
    @TempDir
    Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    @Test
    void readsEveryKey() {
        Experiment e = fx.load("""
                name: tpcc-2pl
                workload: {name: bank, accounts: 30, auditRatio: 0.25}
                tree: ../trees/bank.yaml
                cluster:
                  {mode: embedded, transport: local, dataServers: 3, coordinators: 2, networkDelay: 80us, threads: 4}
                clients: 50
                warmup: 5s
                duration: 30s
                verify: true
                retry: {backoff: 2ms, maxBackoff: 40ms}
                seed: 7
                output: out/runs
                """);
        assertEquals("tpcc-2pl", e.name());
        assertEquals(30, ((BankWorkload) e.workload()).accounts());
        assertEquals(Map.of("name", "bank", "accounts", 30L, "auditRatio", 0.25, "execution", "procedures",
                "roundTrips", "batched"), e.workloadOptions());
        assertEquals(tmp.resolve("trees/bank.yaml"), e.treeRef().file());
        assertEquals("2pl", e.tree().tree().root().mechanism());
        assertEquals(new ClusterSpec("embedded", "local", 3, 2, 80, 4, true), e.cluster());
        assertEquals(50, e.clients());
        assertEquals(WarmupSpec.fixed(5_000_000), e.warmup());
        assertEquals(30_000_000, e.durationMicros());
        assertTrue(e.verify());
        assertEquals(VerifyMode.AFTER, e.verification(), "verify: true checks after the run");
        assertEquals(new RetrySpec(2_000, 40_000), e.retry());
        assertEquals(7, e.seed());
        assertEquals("out/runs", e.output());
    }

    @Test
    void verifyTakesAModeByName() {
        for (VerifyMode m : VerifyMode.values()) {
            assertEquals(m, fx.load(ExperimentFixture.BANK + "verify: " + m.key() + "\n").verification());
            assertEquals(m, fx.load(ExperimentFixture.BANK, "verify=" + m.key().toUpperCase()).verification());
        }
        assertEquals(VerifyMode.OFF, fx.load(ExperimentFixture.BANK + "verify: false\n").verification());
    }

    @Test
    void appliesDefaults() {
        Experiment e = fx.load("""
                name: minimal
                workload: {name: bank}
                tree: ../trees/bank.yaml
                clients: 1
                duration: 1s
                """);
        assertEquals(100, ((BankWorkload) e.workload()).accounts());
        assertEquals(Map.of("name", "bank", "accounts", 100L, "auditRatio", 0.1, "execution", "procedures",
                "roundTrips", "batched"), e.workloadOptions());
        assertEquals(new ClusterSpec("embedded", "local", 1, 1, 50, 0, true), e.cluster());
        assertEquals(WarmupSpec.fixed(0), e.warmup());
        assertFalse(e.verify());
        assertEquals(VerifyMode.OFF, e.verification());
        assertEquals(new RetrySpec(1_000, 50_000), e.retry());
        assertEquals(1, e.seed());
        assertEquals("results", e.output());
    }

    @Test
    void acceptsAnInlineTree() {
        Experiment e = fx.load("""
                name: inline
                workload: {name: bank}
                tree:
                  root:
                    cc: 2pl
                    children:
                      - {cc: 2pl, txns: [transfer]}
                      - {cc: none, txns: [audit]}
                clients: 1
                duration: 1s
                """);
        assertNull(e.treeRef().file());
        assertEquals("inline", e.treeRef().describe());
        assertEquals(2, e.tree().tree().root().children().size());
    }

    @Test
    void durationsAcceptUnitsAndBareMilliseconds() {
        Experiment e = fx.load(ExperimentFixture.BANK, "warmup=250", "duration=2m", "cluster.networkDelay=0");
        assertEquals(WarmupSpec.fixed(250_000), e.warmup());
        assertEquals(120_000_000, e.durationMicros());
        assertEquals(0, e.cluster().networkDelayMicros());
    }

    @Test
    void overridesEveryForm() {
        fx.write("cwdtrees/other.yaml", """
                root: {cc: 2pl, children: [{cc: 2pl, txns: [transfer]}, {cc: none, txns: [audit]}]}
                """);
        Experiment e = fx.load(ExperimentFixture.BANK, "clients=64", "duration=10s", "cluster.networkDelay=50us",
                "tree=cwdtrees/other.yaml", "workload.accounts=2", "verify=true", "retry.maxBackoff=80ms",
                "seed=-3", "name=renamed", "output=/tmp/x", "cluster.threads=2", "warmup=0s");
        assertEquals(64, e.clients());
        assertEquals(10_000_000, e.durationMicros());
        assertEquals(50, e.cluster().networkDelayMicros());
        assertEquals(tmp.resolve("cwdtrees/other.yaml"), e.treeRef().file(), "--set tree resolves against the cwd");
        assertEquals(2, e.tree().tree().root().children().size());
        assertEquals(2, ((BankWorkload) e.workload()).accounts());
        assertTrue(e.verify());
        assertEquals(80_000, e.retry().maxBackoffMicros());
        assertEquals(-3, e.seed());
        assertEquals("renamed", e.name());
        assertEquals("/tmp/x", e.output());
        assertEquals(2, e.cluster().threads());
        assertEquals(WarmupSpec.fixed(0), e.warmup());
    }

    @Test
    void overridesCreateMissingSectionsAndLaterOnesWin() {
        Experiment e = fx.load("""
                name: minimal
                workload: {name: bank}
                tree: ../trees/bank.yaml
                clients: 1
                duration: 1s
                """, "retry.backoff=3ms", "clients=5", "clients=6", "workload={name: bank, accounts: 7}");
        assertEquals(3_000, e.retry().backoffMicros());
        assertEquals(6, e.clients());
        assertEquals(7, ((BankWorkload) e.workload()).accounts());
    }

    @Test
    void overridesReachIntoAnInlineTree() {
        Experiment e = fx.load("""
                name: inline
                workload: {name: bank}
                tree: {root: {cc: 2pl, txns: [transfer, audit]}}
                clients: 1
                duration: 1s
                """, "tree.root.options={lockTimeout: 5ms}");
        assertEquals("5ms", e.tree().tree().root().options().get("lockTimeout"));
    }

    @Test
    void resolvedConfigHasEveryKeyWithDefaults() {
        Experiment e = fx.load("""
                name: minimal
                workload: {name: bank}
                tree: ../trees/bank.yaml
                clients: 3
                duration: 1500ms
                """);
        ObjectNode c = ResolvedConfig.toJson(e);
        for (String k : ExperimentSchema.TOP) {
            assertTrue(c.has(k), k);
        }
        assertEquals("1.5s", c.get("duration").asText());
        assertEquals("0us", c.get("warmup").asText());
        assertEquals(100, c.get("workload").get("accounts").asInt());
        assertEquals("50us", c.get("cluster").get("networkDelay").asText());
        assertEquals("embedded", c.get("cluster").get("mode").asText());
        assertEquals("1ms", c.get("retry").get("backoff").asText());
        assertEquals(tmp.resolve("trees/bank.yaml").toString(), c.get("tree").asText());
        assertNotNull(c.get("treeYaml").asText());
        assertTrue(c.get("treeYaml").asText().startsWith("root:"));
    }

    @Test
    void durabilityIsOffByDefaultAndSetByItsKeys() {
        assertEquals(DurabilitySpec.OFF, fx.load(ExperimentFixture.BANK).durability());
        Experiment e = fx.load(ExperimentFixture.BANK, "durability.enabled=true", "durability.epoch=250ms",
                "durability.sync=true", "durability.dir=data/x");
        assertEquals(new DurabilitySpec(true, "data/x", 250_000, true), e.durability());
        var opts = e.durability().options(tmp, tmp.resolve("fallback"));
        assertEquals(tmp.resolve("data/x"), opts.dir());
        assertEquals(tmp.resolve("data/x/ds1"), opts.dirOf(1));
        assertTrue(opts.sync());
        assertEquals(0, opts.writeLatencyMicros());
        Experiment m = fx.load(ExperimentFixture.BANK, "durability.enabled=true", "durability.sync=true",
                "durability.writeLatency=500us", "durability.store=memory");
        assertEquals(new DurabilitySpec(true, null, 1_000_000, true, 500, true), m.durability());
        var mo = m.durability().options(tmp, tmp.resolve("fallback"));
        assertEquals(500, mo.writeLatencyMicros());
        assertTrue(mo.stores() != null && mo.dir() == null, "in-memory stores, no directory");
        assertEquals(2_000, fx.load(ExperimentFixture.BANK, "durability.enabled=true", "durability.writeLatency=2ms")
                .durability().options(tmp, tmp.resolve("f")).writeLatencyMicros());
    }

    @Test
    void hashPlacementSpreadsEveryTableOverTheServersByItsWholeKey() {
        Experiment e = fx.load(ExperimentFixture.BANK, "cluster.placement=hash", "cluster.dataServers=4");
        assertTrue(e.cluster().hashPlacement());
        assertNull(e.cluster().placement(), "no placement file");
        org.tebaldi.core.model.Catalog cat = e.workload().database().catalog();
        org.tebaldi.server.node.Partitioner p = e.cluster().partitioner(cat, k -> 0);
        java.util.Set<Integer> servers = new java.util.HashSet<>();
        for (long id = 0; id < 20; id++) {
            org.tebaldi.core.model.Key k = org.tebaldi.core.model.Key.of(0, id);
            assertEquals(Math.floorMod(k.hashCode(), 4), p.partition(k), "whole-key hash, not the fallback");
            servers.add(p.partition(k));
        }
        assertEquals(4, servers.size(), "20 accounts land on all 4 servers");
        assertFalse(fx.load(ExperimentFixture.BANK).cluster().hashPlacement(), "the default: the workload's");
    }
}
