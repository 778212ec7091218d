package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.workload.Workloads;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.config.ConfigException;

/**
 * Every kind of bad experiment input gets ONE message naming the file (or override), the line, the place and the
 * fix (docs/experiments.md, "Writing an experiment"). Messages are checked word for word; {@code <dir>} stands for the temporary folder.
 */
class ExperimentErrorsTest {
    @TempDir
    Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
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
    void yamlSyntaxErrorNamesTheLine() {
        assertEquals("<dir>/experiments/x.yaml:3: YAML syntax error at line 4, column 1: could not find expected ':' "
                        + "(while scanning a simple key at line 3, column 1). Fix: check the indentation (spaces, not "
                        + "tabs), colons, brackets and quotes near lines 3-4",
                error("name: x\nworkload: {name: bank}\ntree ../trees/bank.yaml\nclients: 1\n"));
    }

    @Test
    void yamlSyntaxErrorInAFlowMapping() {
        assertEquals("<dir>/experiments/x.yaml:2: YAML syntax error at line 3, column 5: expected ',' or '}', but got "
                + ": (while parsing a flow mapping at line 2, column 11). Fix: check the indentation (spaces, not "
                + "tabs), colons, brackets and quotes near lines 2-3",
                error(bank("{name: bank, accounts: 20}", "{name: bank, accounts: 20")));
    }

    @Test
    void duplicateKey() {
        assertEquals("<dir>/experiments/x.yaml:8: clients: key 'clients' is written twice (first at line 5). "
                + "Fix: keep one 'clients'", error(ExperimentFixture.BANK + "clients: 9\n"));
    }

    @Test
    void unknownTopLevelKeySuggestsTheClosest() {
        assertEquals("<dir>/experiments/x.yaml:5: clientz: unknown key 'clientz' (did you mean 'clients'?). Fix: use "
                + "one of name, workload, tree, cluster, clients, warmup, duration, verify, retry, seed, output, "
                + "profiler, autoconf, target, postgresql, durability, storage, profile, treeOptions",
                error(bank("clients: 4", "clientz: 4")));
    }

    @Test
    void unknownClusterKeySuggestsTheClosest() {
        assertEquals("<dir>/experiments/x.yaml:4: cluster.dataServer: unknown key 'dataServer' (did you mean "
                + "'dataServers'?). Fix: use one of mode, transport, dataServers, coordinators, networkDelay, threads, "
                + "batching, simulation, bind, sessionTimeout, commit, epoch, replication, placement, tls",
                error(bank("dataServers: 2", "dataServer: 2")));
    }

    @Test
    void durabilityKeysAreChecked() {
        assertEquals("<dir>/experiments/x.yaml:8: durability.flush: unknown key 'flush'. Fix: use one of enabled, "
                + "dir, epoch, sync, writeLatency, store", error(ExperimentFixture.BANK + "durability: {flush: async}\n"));
        assertTrue(error(ExperimentFixture.BANK + "durability: {enabled: true, epoch: 0s}\n")
                .contains("durability.epoch"), "a GCP epoch must be positive");
        assertTrue(error(ExperimentFixture.BANK + "durability: {enabled: true, writeLatency: 20s}\n")
                .contains("durability.writeLatency: must be at most 10s"), "an injected latency is bounded");
        assertTrue(error(ExperimentFixture.BANK + "durability: {enabled: true, writeLatency: -1us}\n")
                .contains("durability.writeLatency"), "not negative");
        assertTrue(error(ExperimentFixture.BANK + "durability: {enabled: true, writeLatency: fast}\n")
                .contains("durability.writeLatency"), "a duration");
        assertTrue(error(ExperimentFixture.BANK + "durability: {enabled: true, store: tmpfs}\n")
                .contains("durability.store: unknown store 'tmpfs'"), "stores: rocksdb or memory");
        assertTrue(error(ExperimentFixture.BANK + "durability: {enabled: true, store: memory, dir: d}\n")
                .contains("durability.dir"), "a memory store has no directory");
    }

    @Test
    void missingRequiredKeys() {
        assertEquals("<dir>/experiments/x.yaml: duration: missing required key 'duration'. Fix: add e.g. duration: 30s",
                error(bank("duration: 2s\n", "")));
        assertEquals("<dir>/experiments/x.yaml: tree: missing required key 'tree'. Fix: add e.g. tree: "
                + "../trees/2pl.yaml", error(bank("tree: ../trees/bank.yaml\n", "")));
        assertEquals("<dir>/experiments/x.yaml:2: workload.name: missing required key 'name'. Fix: add e.g. name: bank",
                error(bank("{name: bank, accounts: 20}", "{accounts: 20}")));
    }

    @Test
    void wrongTypes() {
        assertEquals("<dir>/experiments/x.yaml:5: clients: expected a whole number, found 'many'. Fix: write e.g. "
                + "clients: 50", error(bank("clients: 4", "clients: many")));
        assertEquals("<dir>/experiments/x.yaml:7: duration: 'soon' is not a duration (write e.g. 50us, 5ms, 10s, 2m). "
                + "Fix: write e.g. duration: 30s", error(bank("duration: 2s", "duration: soon")));
        assertEquals("<dir>/experiments/x.yaml:4: cluster: expected a mapping, found 'big'. Fix: write e.g. cluster: "
                + "{mode: embedded, dataServers: 2}", error(bank("{dataServers: 2, coordinators: 2}", "big")));
        assertEquals("<dir>/experiments/x.yaml:8: verify: expected true, false, after, process, streamed or off, found "
                + "'yes please'. Fix: write e.g. verify: true (checked after the run from a spill), verify: process (a "
                + "low-priority checker process) or verify: streamed (in the run's JVM)",
                error(ExperimentFixture.BANK + "verify: yes please\n"));
        assertEquals("<dir>/experiments/x.yaml:8: verify: verify: process checks the history of a cluster in the run's "
                + "own JVM; a processes cluster's history is checked after the run. Fix: use verify: true (after the "
                + "run), or run mode embedded", error(ExperimentFixture.BANK + "verify: process\n",
                "cluster.mode=processes"));
        assertEquals("<dir>/experiments/x.yaml:2: workload.accounts: expected a whole number, found 'lots'. Fix: "
                + "write e.g. accounts: 100", error(bank("accounts: 20", "accounts: lots")));
        assertEquals("<dir>/experiments/x.yaml:3: tree: expected a tree file path or an inline tree mapping, found "
                + "5. Fix: write e.g. tree: ../trees/2pl.yaml", error(bank("../trees/bank.yaml", "5")));
    }

    @Test
    void negativeOrZeroDurationsAndClients() {
        assertEquals("<dir>/experiments/x.yaml:7: duration: must be positive, found '0s'. Fix: write e.g. "
                + "duration: 30s", error(bank("duration: 2s", "duration: 0s")));
        assertEquals("<dir>/experiments/x.yaml:7: duration: must not be negative, found '-5s'. Fix: write e.g. "
                + "duration: 30s", error(bank("duration: 2s", "duration: -5s")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup: must not be negative, found -100. Fix: write e.g. "
                + "warmup: 5s", error(bank("warmup: 1s", "warmup: -100")));
        assertEquals("<dir>/experiments/x.yaml:5: clients: must be at least 1, found 0. Fix: write e.g. clients: 50",
                error(bank("clients: 4", "clients: 0")));
        assertEquals("<dir>/experiments/x.yaml:5: clients: must be at least 1, found -2. Fix: write e.g. clients: 50",
                error(bank("clients: 4", "clients: -2")));
        assertEquals("<dir>/experiments/x.yaml:8: retry.maxBackoff: must be at least backoff (10ms), found 5ms. "
                + "Fix: raise maxBackoff or lower backoff", error(ExperimentFixture.BANK
                + "retry: {backoff: 10ms, maxBackoff: 5ms}\n"));
    }

    @Test
    void unknownWorkloadListsTheKnownOnes() {
        assertEquals("<dir>/experiments/x.yaml:2: workload.name: unknown workload 'bnak' (did you mean 'bank'?). "
                + "Fix: use one of " + String.join(", ", Workloads.all().keySet()),
                error(bank("name: bank", "name: bnak")));
        assertTrue(Workloads.all().keySet().containsAll(List.of("bank", "faulty")));
    }

    @Test
    void unknownWorkloadOption() {
        assertEquals("<dir>/experiments/x.yaml:2: workload.acounts: unknown option 'acounts' for workload 'bank' "
                + "(did you mean 'accounts'?). Fix: use one of name, accounts, auditRatio, execution, roundTrips",
                error(bank("accounts: 20", "acounts: 20")));
    }

    @Test
    void missingTreeFile() {
        assertEquals("<dir>/experiments/x.yaml:3: tree: tree file '../trees/nope.yaml' not found (looked for "
                + "<dir>/trees/nope.yaml). Fix: give a path relative to the experiment file's folder "
                + "(<dir>/experiments), or write the tree inline", error(bank("bank.yaml", "nope.yaml")));
        assertEquals("--set tree=nope.yaml: tree: tree file 'nope.yaml' not found (looked for <dir>/nope.yaml). Fix: "
                + "give a path relative to the working directory (<dir>), or write the tree inline",
                error(ExperimentFixture.BANK, "tree=nope.yaml"));
    }

    @Test
    void invalidTreePassesTheTreeLoadersMessageThrough() {
        fx.write("trees/bad.yaml", "root:\n  cc: 2pl\n  txns: [transfer]\n");
        assertEquals("<dir>/trees/bad.yaml:1: root: transaction type 'audit' is in no leaf. Fix: add 'audit' to the "
                + "txns of one leaf", error(bank("bank.yaml", "bad.yaml")));
        assertEquals("<dir>/experiments/x.yaml (tree): root.cc: unknown mechanism '2p1'. Fix: use one of "
                + String.join(", ", Mechanisms.all().keySet()) + " (did you mean '2pl'?)",
                error(bank("../trees/bank.yaml", "{root: {cc: 2p1, txns: [transfer, audit]}}")));
    }

    @Test
    void modesAndTransportsMustMatch() {
        assertEquals("<dir>/experiments/x.yaml:4: cluster.transport: mode processes runs one JVM per node and needs "
                + "the netty transport. Fix: use transport: netty (or leave it out)",
                error(bank("{dataServers", "{mode: processes, transport: local, dataServers")));
        assertEquals("<dir>/experiments/x.yaml:4: cluster.transport: transport netty connects node processes; "
                + "embedded mode runs every node in one JVM. Fix: use mode: processes with transport: netty, or "
                + "transport: local", error(bank("{dataServers", "{transport: netty, dataServers")));
        assertEquals("<dir>/experiments/x.yaml:4: cluster.mode: unknown mode 'cloud'. Fix: use mode: embedded "
                + "or processes or simulated", error(bank("{dataServers", "{mode: cloud, dataServers")));
    }

    @Test
    void badNames() {
        assertEquals("<dir>/experiments/x.yaml:1: name: 'my run' cannot name a run directory. Fix: use letters, "
                + "digits, '.', '_' and '-' only, e.g. name: tpcc-2pl", error(bank("bank-test", "my run")));
    }

    @Test
    void overrideOfAnUnknownPath() {
        assertEquals("--set clientz=3: clientz: unknown key 'clientz' (did you mean 'clients'?). Fix: use one of "
                + "name, workload, tree, cluster, clients, warmup, duration, verify, retry, seed, output, profiler, "
                + "autoconf, target, postgresql, durability, storage, profile, treeOptions",
                error(ExperimentFixture.BANK, "clientz=3"));
        assertEquals("--set cluster.netDelay=1ms: cluster.netDelay: unknown key 'netDelay'. Fix: use one of mode, "
                + "transport, dataServers, coordinators, networkDelay, threads, batching, simulation, bind, sessionTimeout, commit, epoch, replication, placement, tls",
                error(ExperimentFixture.BANK, "cluster.netDelay=1ms"));
        assertEquals("--set clients.max=3: clients.max: 'clients' is a single value, not a section. Fix: write "
                + "--set clients=<value>", error(ExperimentFixture.BANK, "clients.max=3"));
        assertEquals("--set tree.root.cc=none: tree.root.cc: the tree is not written inline, so 'tree.root.cc' does "
                + "not exist. Fix: replace the whole tree: --set tree=<file>",
                error(ExperimentFixture.BANK, "tree.root.cc=none"));
        assertEquals("--set profiler.on=true: profiler.on: unknown key 'on'. Fix: use one of enabled, window, flush",
                error(ExperimentFixture.BANK, "profiler.on=true"));
        assertEquals("--set durability.flush=async: durability.flush: unknown key 'flush'. Fix: use one of enabled, "
                + "dir, epoch, sync, writeLatency, store", error(ExperimentFixture.BANK, "durability.flush=async"));
    }

    @Test
    void malformedOverrides() {
        assertEquals("--set clients: expected key=value. Fix: write e.g. --set clients=64",
                error(ExperimentFixture.BANK, "clients"));
        assertEquals("--set clients=: clients: no value after '='. Fix: write e.g. --set clients=<value>",
                error(ExperimentFixture.BANK, "clients="));
        assertEquals("--set cluster..threads=1: cluster..threads: 'cluster..threads' is not a dotted path. Fix: "
                + "write e.g. --set cluster.networkDelay=50us", error(ExperimentFixture.BANK, "cluster..threads=1"));
    }

    @Test
    void badOverrideValuesNameTheOverride() {
        assertEquals("--set clients=0: clients: must be at least 1, found 0. Fix: write e.g. clients: 50",
                error(ExperimentFixture.BANK, "clients=0"));
        assertEquals("--set duration=-1s: duration: must not be negative, found '-1s'. Fix: write e.g. duration: 30s",
                error(ExperimentFixture.BANK, "duration=-1s"));
        assertEquals("--set workload.warehouses=2: workload.warehouses: unknown option 'warehouses' for workload "
                + "'bank'. Fix: use one of name, accounts, auditRatio, execution, roundTrips",
                error(ExperimentFixture.BANK, "workload.warehouses=2"));
        assertEquals("--set cluster.transport=local: cluster.transport: mode processes runs one JVM per node and "
                + "needs the netty transport. Fix: use transport: netty (or leave it out)",
                error(ExperimentFixture.BANK, "cluster.mode=processes", "cluster.transport=local"));
    }

    @Test
    void emptyOrNonMappingFiles() {
        assertEquals("<dir>/experiments/x.yaml: the experiment file is empty. Fix: write at least name, workload, "
                + "tree, clients and duration", error(""));
        assertEquals("<dir>/experiments/x.yaml: an experiment must be a mapping of keys such as name, workload, "
                + "tree; found a list. Fix: write one 'key: value' per line", error("- a\n- b\n"));
    }

    @Test
    void missingExperimentFile() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ExperimentLoader.load(tmp.resolve("none.yaml"), List.of(), tmp));
        assertEquals("<dir>/none.yaml: no such experiment file. Fix: check the path (relative paths start at <dir>)",
                e.getMessage().replace(tmp.toString(), "<dir>"));
    }

    @Test
    void hashPlacementIsRefusedOnNodeProcesses() {
        assertEquals("<dir>/experiments/x.yaml:4: cluster.placement: placement: hash is built by embedded and "
                + "simulated clusters only (node processes build the workload's partitioner). Fix: use mode: embedded "
                + "or simulated, or remove placement",
                error(bank("dataServers: 2", "dataServers: 2, mode: processes, placement: hash")));
    }
}
