package org.tebaldi.server.sim;

import org.tebaldi.server.ds.DsReplication;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.durability.DurabilityOptions;
import org.tebaldi.server.durability.MemoryLogStore;
import org.tebaldi.server.epoch.EpochService;
import org.tebaldi.server.node.CommitProtocol;
import org.tebaldi.server.replica.ReplicationOptions;

/**
 * Conformance with primary-backup replication on (docs/mechanisms.md "Replication"): random trees of depth up to 3
 * over every registered mechanism ({@link RandomTrees}) on the mix, bank (interactive and stored procedures) and
 * list-append workloads, 3 data servers, factor 2 or 3, COCO's matrix alternating per seed — 2PC(sync) and
 * Epoch(async) (epochs of 1–3 ms) — with synchronous durability on memory stores; every third seed fails a primary over to its backup at a random moment of the run. Trees with a {@code chiller}
 * leaf (flat, and wherever the random trees draw one) run over a placement that marks half the keys hot
 * ({@link ChillerConformanceTest#halfHot}). Each run: serializable history, the workload's invariants and
 * liveness ({@link SimHarness}; list-append's final reads find every acknowledged append), no partial epoch. {@code
 * tebaldi.replicationTrees} (default 70) random trees × {@code tebaldi.treeSeeds} (default 3) seeds.
 */
class ReplicationConformanceTest {
    private static final int TREES = Integer.getInteger("tebaldi.replicationTrees", 70);
    private static final int TREE_SEEDS = Integer.getInteger("tebaldi.treeSeeds", 3);

    private static final List<Supplier<SimWorkload>> WORKLOADS = List.of(() -> new MixWorkload(5),
            () -> new BankWorkload(6), () -> new BankWorkload(6, true), () -> new ListAppendWorkload(5));

    static String run(Supplier<SimWorkload> w, CcTree tree, long seed) {
        boolean epoch = seed % 2 == 0;
        boolean failover = seed % 3 == 0;
        int factor = 2 + (int) (seed % 5 % 2);
        MemoryLogStore[] stores = {new MemoryLogStore(), new MemoryLogStore(), new MemoryLogStore()};
        Map<Integer, MemoryLogStore> replicas = new HashMap<>();
        ReplicationOptions repl = new ReplicationOptions(factor,
                epoch ? ReplicationOptions.Mode.ASYNC : ReplicationOptions.Mode.SYNC,
                (p, host, catalog, owner) -> replicas.computeIfAbsent(p * 16 + host, k -> new MemoryLogStore())
                        .open(catalog, owner));
        // a tree with a chiller leaf gets a placement that marks half the keys hot, so inner regions (released
        // before the vote, replicated before the commit: Chiller §5) happen all the time
        boolean chiller = tree.nodes().stream().anyMatch(n -> n.mechanism().equals("chiller"));
        java.util.function.UnaryOperator<org.tebaldi.server.node.ClusterConfig> configure =
                c -> (epoch ? c.withCommit(CommitProtocol.EPOCH, 1_000 + (seed % 3) * 1_000) : c)
                        .withDurability(new DurabilityOptions(true, null, 2_000, true, MemoryLogStore.factory(stores)))
                        .withReplication(repl);
        if (chiller) {
            java.util.function.UnaryOperator<org.tebaldi.server.node.ClusterConfig> plain = configure;
            configure = c -> ChillerConformanceTest.halfHot(plain.apply(c));
        }
        String what = "seed=" + seed + " tree=" + tree.describe() + (epoch ? " epoch(async)" : " 2pc(sync)")
                + " factor " + factor + (failover ? " with failover" : "") + ": ";
        try {
            Cluster c;
            if (failover) {
                // a node failure ends attempts without a retry: FaultRun's clients count them and go on
                FaultRun run = new FaultRun(seed, w.get(), tree, 2, 3, configure);
                long at = 5_000 + seed % 40_000;
                run.sim.at(at, () -> run.cluster.failoverDataServer((int) (seed % 3), 1_000, 3_000));
                run.healedAt = at + 50_000;
                run.clients(6, 300_000).runAndCheck(300_000);
                c = run.cluster;
            } else {
                c = new SimHarness(w.get(), tree).nodes(2, 3).model(seed % 2 == 1
                        ? SimulatedRuntime.Model.withPauses() : SimulatedRuntime.Model.jittery())
                        .configure(configure).run(seed, new SimHarness.Stats());
            }
            CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
            if (!r.serializable()) {
                return what + r.summary(5);
            }
            if (c.service(Role.EPOCH) instanceof EpochService s) {
                java.util.Set<Long> retracted = new java.util.HashSet<>();
                c.coordinators().forEach(tc -> retracted.addAll(tc.retractedCommits()));
                EpochCheck.noPartialEpoch(c, List.of(s.decisions()), retracted);
            }
            long shipped = c.dataServers().stream()
                    .flatMap(d -> d.replication().map(DsReplication::replicatedLog).stream())
                    .mapToLong(log -> log.shippedRecords()).sum();
            if (shipped == 0) {
                return what + "nothing was shipped to a backup";
            }
            if (failover && c.promotions() != 1) {
                return what + "no backup was promoted";
            }
            return null;
        } catch (RuntimeException | AssertionError e) {
            return what + e;
        }
    }

    private static long[] seeds(long first, int n) {
        String one = System.getProperty("tebaldi.seed");
        if (one != null) {
            return new long[] {Long.parseLong(one)};
        }
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = first + i;
        }
        return s;
    }

    @Test
    void everyMechanismFlatWithReplication() {
        List<String> failures = new ArrayList<>();
        for (String m : List.of("2pl", "rp", "ssi", "tso", "occ", "chiller")) {
            CcTree tree = CcTree.build(TreeSpec.leaf(m, "rw1", "rw2", "ro"), m);
            for (long seed : seeds(m.hashCode() & 0xfff, 6)) {
                String f = run(() -> new MixWorkload(5), tree, seed);
                if (f != null) {
                    failures.add(f);
                }
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " runs failed:\n  " + String.join("\n  ", failures));
    }

    @Test
    void randomTreesOfDepthUpToThreeWithReplication() {
        List<String> failures = new ArrayList<>();
        int runs = 0;
        for (int i = 1; i <= TREES; i++) {
            Supplier<SimWorkload> w = WORKLOADS.get(i % WORKLOADS.size());
            TreeSpec spec = new RandomTrees(w.get().database(), 9_000 + i, 3).next();
            CcTree tree = CcTree.build(spec, "random#" + i);
            for (long seed : seeds(i * 1000L + 29, TREE_SEEDS)) {
                runs++;
                String f = run(w, tree, seed);
                if (f != null) {
                    failures.add("tree #" + i + " " + f);
                }
            }
        }
        int total = runs;
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + total + " runs failed:\n  "
                + String.join("\n  ", failures.subList(0, Math.min(10, failures.size()))));
    }
}
