package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.server.ds.DataServer;

/**
 * DST (an {@code ssi} root with {@code timestamps: dst}, docs/mechanisms.md "DST", "Crash recovery") under a
 * data-server crash and restart from its log while the rest runs on ({@code Cluster#restartDataServer}), with every
 * node's clock skewed (±20 ms, ±10 % drift; on odd seeds the coordinators 40 ms apart): bank transfers in a 2PL, OCC
 * or nested 2PL update group (RP aborts the interactive transfer for good) and audits as snapshot transactions ({@code none}). Each run: every durable transaction is in
 * the recovered history, the bank total holds (every committed audit saw it), the cluster commits after the restart,
 * the history is serializable, and no audit aborted unless it was running between the crash and the end of the
 * recovery round (snapshots never abort outside one). {@code tebaldi.dstRestartSeeds} (default 12) seeds per tree,
 * {@code -Dtebaldi.seed=N} one.
 */
class DstRestartSimTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.dstRestartSeeds", 12);
    private static final int ACCOUNTS = 6;

    static Stream<Arguments> trees() {
        return Stream.of(TreeSpec.leaf("2pl", "transfer"), TreeSpec.leaf("occ", "transfer"),
                TreeSpec.inner("2pl", TreeSpec.leaf("2pl", "transfer")).option("deadlock", "no-wait"))
                .map(u -> Arguments.of(TreeSpec.inner("ssi", u, TreeSpec.leaf("none", "audit"))
                        .option("timestamps", "dst")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void snapshotsStaySerializableAndNeverAbortOutsideTheRecoveryRound(TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "dst-restart");
        List<String> failures = new ArrayList<>();
        long[] counts = new long[2]; // audits committed, audits aborted (all while a crash or recovery ran)
        List<Long> seeds = DurableBankRun.seeds(SEEDS);
        for (long seed : seeds) {
            String f = run(tree, seed, counts);
            if (f != null) {
                failures.add(f);
            }
        }
        System.out.printf("%s: %d seeds, %d failed; %d audits committed, %d aborted during a crash or recovery%n",
                tree.describe(), seeds.size(), failures.size(), counts[0], counts[1]);
        assertTrue(failures.isEmpty(), failures.size() + " of " + seeds.size() + " seeds failed:\n  "
                + String.join("\n  ", failures.subList(0, Math.min(10, failures.size()))));
    }

    /** One seeded run; a failure's description, or null. */
    static String run(CcTree tree, long seed, long[] counts) {
        Random rnd = new Random(seed * 7919);
        MemoryLogStore[] stores = {new MemoryLogStore(), new MemoryLogStore(), new MemoryLogStore()};
        DurableBankRun run = new DurableBankRun(seed, tree, ACCOUNTS, stores, 3_000, seed % 3 == 0);
        Random skew = new Random(seed);
        for (NodeId n : run.sim.nodeIds()) {
            run.sim.faults().clockSkew(n, skew.nextLong() % 20_000, (skew.nextDouble() - 0.5) * 200_000);
        }
        if (seed % 2 == 1) { // coordinators 40 ms apart: timestamps cannot follow real time
            run.sim.faults().clockSkew(NodeId.tc(0), 20_000, 0);
            run.sim.faults().clockSkew(NodeId.tc(1), -20_000, 0);
        }
        run.start();
        int ds = rnd.nextInt(stores.length);
        long crashAt = 20_000 + rnd.nextInt(100_000);
        boolean keepAll = seed % 4 == 0;
        List<long[]> abortedAudits = new ArrayList<>(); // {begin, end} µs
        long[] auditsCommitted = {0};
        long[] wrongTotals = {0};
        for (int i = 0; i < 6; i++) {
            TxnClient cl = run.cluster.client(i);
            Random r = new Random(rnd.nextLong());
            run.sim.at(r.nextInt(200), () -> loop(run, cl, r, 500_000, abortedAudits, auditsCommitted,
                    wrongTotals));
        }
        run.sim.at(crashAt, () -> run.cluster.restartDataServer(ds, 1_000, 5_000 + rnd.nextInt(20_000),
                () -> stores[ds].crash(rnd, keepAll)));
        String what = "seed=" + seed + " (ds" + ds + " crashed at " + crashAt + " µs): ";
        try {
            run.sim.runUntil(crashAt + 26_000);
            assertTrue(run.awaitRecovered(2_000_000), "recovered within 2 virtual s");
            long recoveredAt = run.sim.nowMicros();
            int committedAtRestart = run.committed.size();
            run.sim.runUntil(900_000);
            assertTrue(run.failure() == null, String.valueOf(run.failure()));
            assertTrue(run.cluster.dataServers().stream().noneMatch(DataServer::recovering), "still recovering");
            assertTrue(run.committed.size() > committedAtRestart, "the cluster commits after the restart");
            assertEquals(0, wrongTotals[0], "audits that saw a wrong total");
            assertTrue(auditsCommitted[0] > 0, "no audit committed");
            assertEquals(DurableBankRun.INITIAL * ACCOUNTS, run.total(), "total after recovery");
            for (long[] a : abortedAudits) {
                assertTrue(a[1] >= crashAt && a[0] <= recoveredAt, "an audit running from " + a[0] + " to " + a[1]
                        + " µs aborted outside the crash and recovery (" + crashAt + " to " + recoveredAt + " µs)");
            }
            Set<Long> present = new HashSet<>();
            for (HistoryLog h : run.histories()) {
                h.outcomes().forEach(o -> {
                    if (o.committed()) {
                        present.add(o.txn());
                    }
                });
            }
            for (long t : run.durable) {
                assertTrue(present.contains(t), "durable transaction " + t + " is missing after recovery");
            }
            run.assertSerializable();
            counts[0] += auditsCommitted[0];
            counts[1] += abortedAudits.size();
            return null;
        } catch (AssertionError | RuntimeException e) {
            return what + e.getMessage();
        }
    }

    /** A client's closed loop: 3 in 10 audits (snapshot transactions), else transfers, until {@code until} µs. */
    private static void loop(DurableBankRun run, TxnClient cl, Random r, long until, List<long[]> abortedAudits,
                             long[] auditsCommitted, long[] wrongTotals) {
        if (run.sim.nowMicros() >= until || run.failure() != null) {
            return;
        }
        long begin = run.sim.nowMicros();
        boolean audit = r.nextInt(10) < 3;
        CompletableFuture<CommitInfo> f;
        if (audit) {
            f = cl.begin("audit", Inputs.NONE, begin).thenCompose(t -> sum(t, 0, 0).thenCompose(total ->
                    t.commit().thenApply(ci -> {
                        if (total != DurableBankRun.INITIAL * ACCOUNTS) {
                            throw new AssertionError("audit " + ci.txnId() + " saw " + total);
                        }
                        return ci;
                    })));
        } else {
            long a = r.nextInt(ACCOUNTS);
            long b = (a + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            long amount = 1 + r.nextInt(20);
            f = cl.begin("transfer", Inputs.of(a, b, amount), begin).thenCompose(t ->
                    t.read("account", a).thenCompose(ra -> t.read("account", b).thenCompose(rb ->
                            t.write(run.account.row(ra.getLong("balance") - amount), a).thenCompose(x ->
                                    t.write(run.account.row(rb.getLong("balance") + amount), b)).thenCompose(x ->
                                    t.commit()))));
        }
        f.whenComplete((ci, e) -> {
            if (e == null) {
                run.committed.add(ci.txnId());
                ci.durable().whenComplete((v, x) -> (x == null ? run.durable : run.lost).add(ci.txnId()));
                if (audit) {
                    auditsCommitted[0]++;
                }
            } else if (e.getCause() instanceof AssertionError || e instanceof AssertionError) {
                wrongTotals[0]++;
            } else if (audit) {
                abortedAudits.add(new long[] {begin, run.sim.nowMicros()});
            }
            run.sim.at(run.sim.nowMicros() + 50 + r.nextInt(500), () -> loop(run, cl, r, until, abortedAudits,
                    auditsCommitted, wrongTotals));
        });
    }

    private static CompletableFuture<Long> sum(Transaction t, int i, long acc) {
        if (i == ACCOUNTS) {
            return CompletableFuture.completedFuture(acc);
        }
        return t.read("account", i).thenCompose(row -> sum(t, i + 1, acc + row.getLong("balance")));
    }
}
