package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.cc.ts.SnapshotStats;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.cluster.Cluster;

/**
 * DST (decentralized scalar timestamps, {@code ssi} root with {@code timestamps: dst}) over 2PL, OCC and RP update
 * subtrees with read-only snapshot groups: serializable over many seeds; and read-only snapshots under clock skew
 * stay serializable and never abort.
 */
class DstConformanceTest {
    private static TreeSpec dst(TreeSpec... children) {
        return TreeSpec.inner("ssi", children).option("timestamps", "dst");
    }

    static Stream<Arguments> cases() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> mix = () -> new MixWorkload(5);
        return Stream.of(
                Arguments.of("bank", bank, dst(TreeSpec.leaf("2pl", "transfer"), TreeSpec.leaf("none", "audit"))),
                Arguments.of("bank", bank, dst(TreeSpec.leaf("occ", "transfer"), TreeSpec.leaf("none", "audit"))),
                Arguments.of("mix", mix, dst(TreeSpec.leaf("2pl", "rw1", "rw2"), TreeSpec.leaf("none", "ro"))),
                Arguments.of("mix", mix, dst(TreeSpec.leaf("occ", "rw1", "rw2"), TreeSpec.leaf("none", "ro"))),
                Arguments.of("mix", mix, dst(TreeSpec.leaf("rp", "rw1", "rw2"), TreeSpec.leaf("none", "ro"))),
                Arguments.of("mix", mix, dst(TreeSpec.inner("2pl", TreeSpec.leaf("rp", "rw1"),
                        TreeSpec.leaf("2pl", "rw2")), TreeSpec.leaf("none", "ro"))),
                Arguments.of("mix", mix, dst(TreeSpec.inner("rp", TreeSpec.leaf("2pl", "rw1"),
                        TreeSpec.leaf("rp", "rw2")), TreeSpec.leaf("none", "ro")).option("staleness", "2ms")),
                Arguments.of("mix", mix, dst(TreeSpec.leaf("2pl", "rw1", "rw2", "ro"))
                        .option("staleness", "1ms")));
    }

    @ParameterizedTest(name = "{0} under {2}")
    @MethodSource("cases")
    void serializableOverManySeeds(String name, Supplier<SimWorkload> workload, TreeSpec spec) {
        CcTree tree = CcTree.build(spec, name);
        SimSuite.Totals t = SimSuite.run(workload, tree, SimSuite.seeds(200));
        assertTrue(t.failures().isEmpty(), () -> SimSuite.report(t));
        System.out.printf("%s under %s: %d seeds, %d committed, %d aborted attempts%n", name, tree.describe(),
                t.runs(), t.committed(), t.aborted());
    }

    static Stream<Arguments> skewed() {
        return Stream.of(
                Arguments.of(dst(TreeSpec.leaf("2pl", "rw1", "rw2"), TreeSpec.leaf("none", "ro"))),
                Arguments.of(dst(TreeSpec.leaf("occ", "rw1", "rw2"), TreeSpec.leaf("none", "ro"))),
                Arguments.of(dst(TreeSpec.leaf("rp", "rw1", "rw2"), TreeSpec.leaf("none", "ro"))
                        .option("staleness", "5ms")));
    }

    /**
     * Every node's clock off by up to ±50 ms and drifting up to ±10 %: the snapshot transactions ({@code ro},
     * counted by the workload) commit at their first attempt, every history is serializable, and a snapshot's
     * visibility lag stays within the staleness bound plus the skew.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("skewed")
    void snapshotsUnderClockSkewNeverAbort(TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "skew");
        List<String> failures = new ArrayList<>();
        long roCommitted = 0;
        long[] seeds = SimSuite.seeds(150);
        for (long seed : seeds) {
            SnapshotWorkload w = new SnapshotWorkload(new MixWorkload(5));
            SimHarness h = new SimHarness(w, tree).model(SimulatedRuntime.Model.jittery()).onSim((sim, c) -> {
                Random r = new Random(seed);
                for (NodeId n : sim.nodeIds()) {
                    sim.faults().clockSkew(n, r.nextLong() % 50_000, (r.nextDouble() - 0.5) * 200_000);
                }
                if (seed % 2 == 0) { // the coordinators' clocks 100 ms apart: timestamps must not follow real time
                    sim.faults().clockSkew(NodeId.tc(0), 50_000, 0);
                    sim.faults().clockSkew(NodeId.tc(1), -50_000, 0);
                }
            });
            try {
                Cluster c = h.run(seed, new SimHarness.Stats());
                CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
                if (!r.serializable()) {
                    failures.add("seed=" + seed + ": " + r.summary(5));
                }
                if (w.roAborted.get() != 0) {
                    failures.add("seed=" + seed + ": " + w.roAborted.get() + " snapshot transactions aborted");
                }
            } catch (RuntimeException | AssertionError e) {
                failures.add("seed=" + seed + ": " + e);
            }
            roCommitted += w.roCommitted.get();
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " seeds failed: " + failures.subList(0,
                Math.min(10, failures.size())));
        assertTrue(roCommitted > 20L * seeds.length, "too few snapshot transactions ran: " + roCommitted);
    }

    /**
     * The staleness bound is the snapshot's distance behind its coordinator's clock (no skew here): a fresh snapshot
     * lags by a few ms at most, a 20 ms stale one by about 20 ms (a little less: the first 20 virtual ms read at
     * timestamp 0, and the physical part is whole ms) — and waits for fewer prepared writers, since writers that
     * started after its time are skipped without waiting (their coordinator's clock bounds their commit).
     */
    @Test
    void stalenessBoundsTheLagAndSparesWaits() {
        long[] fresh = lagAndBlocked(null);
        long[] stale = lagAndBlocked("20ms");
        assertTrue(fresh[0] < 5_000, "fresh snapshots lag " + fresh[0] + " µs");
        assertTrue(stale[0] >= 15_000 && stale[0] < 40_000, "20 ms stale snapshots lag " + stale[0] + " µs");
        assertTrue(fresh[1] > 0, "fresh snapshots never waited: the comparison below would prove nothing");
        assertTrue(stale[1] < fresh[1], "blocked reads: stale " + stale[1] + ", fresh " + fresh[1]);
    }

    /**
     * The snapshot-read counters belong to their cluster: the same seeded run twice in one JVM counts the same
     * (process-wide counters without a reset, as before, counted the first run again in the second).
     */
    @Test
    void snapshotCountsBelongToTheirCluster() {
        TreeSpec spec = dst(TreeSpec.leaf("2pl", "rw1", "rw2"), TreeSpec.leaf("none", "ro"));
        java.util.function.Supplier<java.util.Map<String, Long>> run = () -> new SimHarness(
                new SnapshotWorkload(new MixWorkload(5)), CcTree.build(spec, "own")).clients(6, 40)
                .run(11, new SimHarness.Stats()).ccCounters();
        java.util.Map<String, Long> first = run.get();
        java.util.Map<String, Long> second = run.get();
        assertTrue(first.getOrDefault(SnapshotStats.READS, 0L) > 0, "no snapshot read counted: " + first);
        org.junit.jupiter.api.Assertions.assertEquals(first.get(SnapshotStats.READS), second.get(SnapshotStats.READS));
        org.junit.jupiter.api.Assertions.assertEquals(first.get(SnapshotStats.BLOCKED),
                second.get(SnapshotStats.BLOCKED));
    }

    /** Mean lag (µs) and blocked reads of snapshot reads in one seeded run with that staleness (null: none). */
    private static long[] lagAndBlocked(String staleness) {
        TreeSpec spec = dst(TreeSpec.leaf("2pl", "rw1", "rw2"), TreeSpec.leaf("none", "ro"));
        if (staleness != null) {
            spec.option("staleness", staleness);
        }
        java.util.Map<String, Long> c = new SimHarness(new SnapshotWorkload(new MixWorkload(5)),
                CcTree.build(spec, "lag")).clients(16, 200).run(7, new SimHarness.Stats()).ccCounters();
        long reads = c.getOrDefault(SnapshotStats.READS, 0L);
        long blocked = c.getOrDefault(SnapshotStats.BLOCKED, 0L);
        assertTrue(reads > 100, "snapshot reads: " + reads);
        System.out.printf("staleness %s: mean lag %.3f ms, %d of %d snapshot reads blocked%n", staleness,
                SnapshotStats.meanLagMs(c), blocked, reads);
        return new long[] {(long) (SnapshotStats.meanLagMs(c) * 1000), blocked};
    }

    /** Mix's workload plus snapshot transactions of its own ({@code ro}, 1–5 reads), whose outcomes it counts. */
    static final class SnapshotWorkload implements SimWorkload {
        private final MixWorkload mix;
        final AtomicLong roCommitted = new AtomicLong();
        final AtomicLong roAborted = new AtomicLong();

        SnapshotWorkload(MixWorkload mix) {
            this.mix = mix;
        }

        @Override
        public Database database() {
            return mix.database();
        }

        @Override
        public void load(Cluster cluster) {
            mix.load(cluster);
        }

        @Override
        public CompletableFuture<Boolean> attempt(TxnClient client, Random rnd, long priority) {
            if (rnd.nextInt(3) != 0) {
                return mix.attempt(client, rnd, priority);
            }
            int n = 1 + rnd.nextInt(5);
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = rnd.nextInt(5);
            }
            var kv = database().catalog().table("kv");
            return org.tebaldi.server.sim.Attempts.outcome(client.begin("ro", Inputs.NONE, priority)
                    .thenCompose(t -> read(t, kv, keys, 0).thenCompose(x -> t.commit())))
                    .thenApply(ok -> {
                        (ok ? roCommitted : roAborted).incrementAndGet();
                        return ok;
                    });
        }

        private CompletableFuture<?> read(Transaction t, org.tebaldi.core.model.TableSchema kv, long[] keys, int i) {
            if (i == keys.length) {
                return CompletableFuture.completedFuture(null);
            }
            return t.execute(Op.read(Key.of(kv, keys[i]))).thenCompose(r -> read(t, kv, keys, i + 1));
        }
    }
}
