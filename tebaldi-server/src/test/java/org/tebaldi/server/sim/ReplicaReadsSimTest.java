package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.durability.DurabilityOptions;
import org.tebaldi.server.durability.MemoryLogStore;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.CommitProtocol;
import org.tebaldi.server.replica.ReplicaViews;
import org.tebaldi.server.replica.ReplicationOptions;

/**
 * Reads from the nearest replica (docs/mechanisms.md "Replication", {@code cluster.replication.reads: nearest}):
 * read-only snapshot transactions of an SSI root (GTS and DST) over 2PL update groups, on 2 coordinators and 3 data
 * servers with factor 3, 2PC(sync) and Epoch(async) alternating per seed. Every history is serializable, the
 * workloads' invariants hold (the bank's audits see conserved totals), and backups serve reads — also with a
 * primary failed over mid-run and with the links from the primaries to their backups slowed (async replication
 * lagging: reads fall back to the primary). With the watermark check off, backups serve reads above their
 * watermark and the suite finds the violations.
 */
class ReplicaReadsSimTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.replicaReadSeeds", 10);

    private static TreeSpec gts(String update, String ro, String... rw) {
        return TreeSpec.inner("ssi", TreeSpec.leaf(update, rw), TreeSpec.leaf("none", ro));
    }

    private static TreeSpec dst(String update, String ro, String... rw) {
        return gts(update, ro, rw).option("timestamps", "dst");
    }

    static Stream<Arguments> trees() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> mix = () -> new MixWorkload(5);
        return Stream.of(
                Arguments.of("bank gts", bank, gts("2pl", "audit", "transfer")),
                Arguments.of("bank dst", bank, dst("2pl", "audit", "transfer")),
                // with a staleness bound: snapshots and watermarks both trail the clocks by it
                Arguments.of("bank dst staleness", bank,
                        dst("2pl", "audit", "transfer").option("staleness", "20ms")),
                Arguments.of("mix gts", mix, gts("2pl", "ro", "rw1", "rw2")),
                Arguments.of("mix dst", mix, dst("occ", "ro", "rw1", "rw2")));
    }

    static UnaryOperator<ClusterConfig> configure(long seed) {
        return configure(seed, 2_000, true);
    }

    /** GCP epochs of {@code gcpMicros}; {@code syncDurability}: a commit is answered once durable. */
    static UnaryOperator<ClusterConfig> configure(long seed, long gcpMicros, boolean syncDurability) {
        boolean epoch = seed % 2 == 0;
        MemoryLogStore[] stores = {new MemoryLogStore(), new MemoryLogStore(), new MemoryLogStore()};
        Map<Integer, MemoryLogStore> replicas = new HashMap<>();
        ReplicationOptions repl = new ReplicationOptions(3,
                epoch ? ReplicationOptions.Mode.ASYNC : ReplicationOptions.Mode.SYNC,
                (p, host, catalog, owner) -> replicas.computeIfAbsent(p * 16 + host, k -> new MemoryLogStore())
                        .open(catalog, owner), ReplicationOptions.Reads.NEAREST);
        return c -> (epoch ? c.withCommit(CommitProtocol.EPOCH, 1_000 + (seed % 3) * 1_000) : c)
                .withDurability(new DurabilityOptions(true, null, gcpMicros, syncDurability,
                        MemoryLogStore.factory(stores)))
                .withReplication(repl);
    }

    private static long[] counts(Cluster c) {
        long[] out = new long[2];
        c.coordinators().forEach(tc -> {
            long[] x = tc.replicaReadCounts();
            out[0] += x[0];
            out[1] += x[1];
        });
        return out;
    }

    /** One run; the failure, or null. {@code served} gets the reads backups served and the fallbacks. */
    static String run(Supplier<SimWorkload> w, CcTree tree, long seed, long[] served,
                      java.util.function.BiConsumer<SimulatedRuntime, Cluster> onSim) {
        String what = "seed=" + seed + " tree=" + tree.describe() + (seed % 2 == 0 ? " epoch(async)" : " 2pc(sync)")
                + ": ";
        try {
            Cluster c = new SimHarness(w.get(), tree).nodes(2, 3).clients(6, 40)
                    .model(seed % 3 == 1 ? SimulatedRuntime.Model.withPauses() : SimulatedRuntime.Model.jittery())
                    .configure(configure(seed)).onSim(onSim).run(seed, new SimHarness.Stats());
            CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
            long[] n = counts(c);
            served[0] += n[0];
            served[1] += n[1];
            return r.serializable() ? null : what + r.summary(5);
        } catch (RuntimeException | AssertionError e) {
            return what + e;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void snapshotReadsServedByBackupsStaySerializable(String name, Supplier<SimWorkload> w, TreeSpec spec) {
        CcTree tree = CcTree.build(spec, name);
        List<String> failures = new ArrayList<>();
        long[] served = new long[2];
        for (long seed = 1; seed <= SEEDS; seed++) {
            String f = run(w, tree, seed, served, (s, c) -> { });
            if (f != null) {
                failures.add(f);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " runs failed:\n  " + String.join("\n  ", failures));
        System.out.printf("%s: %d reads served by backups, %d fell back to the primary%n", name, served[0], served[1]);
        assertTrue(served[0] > 0, name + ": no read was served by a backup");
    }

    /**
     * Async replication lagging: from 5 to 100 ms of each run every link from a data server to the others (its backups)
     * takes 8 ms more, beyond a backup read's 5-ms wait: backups fall behind their snapshots, refuse, and the primary
     * serves — still serializable; backups serve again before and after.
     */
    @Test
    void laggingBackupsFallBackToThePrimary() {
        CcTree tree = CcTree.build(dst("2pl", "audit", "transfer"), "bank dst");
        List<String> failures = new ArrayList<>();
        long[] served = new long[2];
        for (long seed = 1; seed <= SEEDS; seed++) {
            String f = run(() -> new BankWorkload(6), tree, seed, served, (s, c) -> {
                for (int a = 0; a < 3; a++) {
                    for (int b = 0; b < 3; b++) {
                        if (a != b) {
                            s.faults().delaySpike(NodeId.ds(a), NodeId.ds(b), 5_000, 100_000, 8_000);
                        }
                    }
                }
            });
            if (f != null) {
                failures.add(f);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " runs failed:\n  " + String.join("\n  ", failures));
        System.out.printf("lagging: %d served by backups, %d fell back%n", served[0], served[1]);
        assertTrue(served[0] > 0, "no read was served by a backup");
        assertTrue(served[1] > 0, "no read fell back to the primary while the backups lagged");
    }

    /**
     * A primary fails over to its backup mid-run, with asynchronous durability and 10-ms GCP epochs (commits are
     * answered before they are durable, so the recovery round retracts many): reads served by backups before the
     * failure stay consistent with what the round kept (a reader of a retracted write is retracted with it: its
     * epoch is raised to the writer's), the views are dropped, the run commits after the take-over, and the history
     * is serializable.
     */
    static Stream<Arguments> failoverTrees() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> mix = () -> new MixWorkload(5);
        return Stream.of(Arguments.of("bank dst", bank, dst("2pl", "audit", "transfer")),
                Arguments.of("bank dst staleness", bank,
                        dst("2pl", "audit", "transfer").option("staleness", "20ms")),
                Arguments.of("mix dst", mix, dst("2pl", "ro", "rw1", "rw2")),
                Arguments.of("mix gts", mix, gts("2pl", "ro", "rw1", "rw2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failoverTrees")
    void failoverWithBackupReads(String name, Supplier<SimWorkload> w, TreeSpec spec) {
        CcTree tree = CcTree.build(spec, name);
        List<String> failures = new ArrayList<>();
        long served = 0;
        long retracted = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            try {
                FaultRun run = new FaultRun(seed, w.get(), tree, 2, 3, configure(seed, 20_000, false));
                // 62..80 ms into the 200-ms run, whatever the seed count (tebaldi.replicaReadSeeds)
                long at = 60_000 + ((seed - 1) % 10 + 1) * 2_000;
                long s = seed;
                run.sim.at(at, () -> run.cluster.failoverDataServer((int) (s % 3), 1_000, 3_000));
                run.healedAt = at + 50_000;
                run.clients(6, 200_000).runAndCheck(200_000);
                if (run.cluster.promotions() != 1) {
                    failures.add("seed=" + seed + ": no backup was promoted");
                }
                served += counts(run.cluster)[0];
                retracted += run.cluster.coordinators().stream().mapToLong(tc -> tc.retractedCommits().size()).sum();
            } catch (RuntimeException | AssertionError e) {
                failures.add("seed=" + seed + ": " + e);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " runs failed:\n  " + String.join("\n  ", failures));
        System.out.printf(name + " failover: %d reads served by backups, %d commits retracted%n", served, retracted);
        assertTrue(served > 0, "no read was served by a backup before the failovers");
    }

    /**
     * The watermark check matters: with it off a backup answers snapshots above what it holds, and over the same
     * seeds the checks find violations (non-serializable histories or failed bank audits).
     */
    @Test
    void aBackupServingAboveItsWatermarkIsCaught() {
        int failed = 0;
        ReplicaViews.checkWatermarkForTests(false);
        try {
            for (Object[] a : trees().map(Arguments::get).toList()) {
                @SuppressWarnings("unchecked")
                Supplier<SimWorkload> w = (Supplier<SimWorkload>) a[1];
                CcTree tree = CcTree.build((TreeSpec) a[2], (String) a[0]);
                for (long seed = 1; seed <= SEEDS; seed++) {
                    if (run(w, tree, seed, new long[2], (s, c) -> { }) != null) {
                        failed++;
                    }
                }
            }
        } finally {
            ReplicaViews.checkWatermarkForTests(true);
        }
        System.out.printf("without the watermark check: %d failed runs%n", failed);
        assertTrue(failed > 0, "backups served reads above their watermark and no check noticed");
    }
}
