package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateRequest;

/**
 * The schedules of Sundial's Figures 1 and 2 (Yu et al., VLDB 2018, §3.1–3.2) on a one-node tree, for Sundial and
 * for TicToc (the same leases, without locks during execution): a transaction that read a record commits at a
 * logical time before a transaction that overwrote it and committed first — no abort, no wait — and the commit
 * timestamps come out of the leases as the paper computes them. The leases are read from the versions' stamps.
 * Also: the three abort reasons of the prepare phase, TicToc's write that commits after a later writer (its version
 * moves on top), and the cache.
 */
class SundialScenariosTest {
    private static final long A = 0;
    private static final long B = 1;
    private static final long C = 2;
    private static final long D = 3;
    private static final long X = 4;

    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, -1, false, Catalog.longCol("v"));
    /** Never written: a read-only table (Sundial §4.3). */
    private final TableSchema ro = cat.add("ro", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    SundialScenariosTest() {
        db.interactive("rw", false);
    }

    private Scenario scenario(TreeSpec tree) {
        Scenario s = new Scenario(db, CcTree.build(tree, "scenario"), 1);
        for (long k = 0; k <= X; k++) {
            s.load(Key.of(t, k), t.row(0L));
            s.load(Key.of(ro, k), ro.row(0L));
        }
        return s.start();
    }

    /** The lease {@code [wts, rts]} of {@code key}'s latest committed version. */
    private long[] lease(Scenario s, long key) {
        Version v = s.cluster.dataServers().get(0).store().find(Key.of(t, key)).latestCommitted();
        int root = s.cluster.config().tree().root().id();
        // a version no transaction looked at yet has no stamps: its lease is [0, 0] (LeaseStore)
        return v.stamp(root) == Version.NO_STAMP ? new long[] {0, 0} : new long[] {v.stamp(root), v.auxStamp(root)};
    }

    private static String lease(long[] l) {
        return "[" + l[0] + ", " + l[1] + "]";
    }

    /** A whole transaction at {@code micros}: reads {@code reads}, then writes 1 + what it read of each of {@code writes}. */
    private CompletableFuture<?> txn(Scenario s, long micros, int client, long priority, long[] reads, long[] writes) {
        CompletableFuture<Object> done = new CompletableFuture<>();
        s.at(micros, () -> s.client(client).begin("rw", Inputs.NONE, priority).thenCompose(tx -> {
            CompletableFuture<?> f = CompletableFuture.completedFuture(null);
            for (long k : reads) {
                f = f.thenCompose(x -> tx.read("t", k));
            }
            for (long k : writes) {
                f = f.thenCompose(x -> tx.write(t.row(7L), k));
            }
            return f.thenCompose(x -> tx.commit());
        }).whenComplete((v, e) -> {
            if (e != null) {
                done.completeExceptionally(e);
            } else {
                done.complete(v);
            }
        }));
        return done;
    }

    /** Writes {@code key} {@code times} times in a row: its lease becomes {@code [n, n]} for n = rts + times. */
    private long bump(Scenario s, long from, long key, int times) {
        for (int i = 0; i < times; i++) {
            txn(s, from + i * 5_000L, 0, from + i, new long[0], new long[] {key});
        }
        return from + times * 5_000L;
    }

    /**
     * Fig. 2: T1 reads A with the lease [0, 10]; T2 then writes A (its commit timestamp jumps past the lease, to 11)
     * and commits first; T1 commits afterwards at a timestamp inside [0, 10] — it writes D, whose lease [0, 0]
     * makes that 1. Both commit; logically T1 is first.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sundial", "tictoc"})
    void fig2ReadWriteConflictCommitsBoth(String cc) {
        Scenario s = scenario(TreeSpec.leaf(cc, "rw"));
        long at = bump(s, 0, X, 10); // X: [10, 10]
        txn(s, at, 0, at, new long[] {X, A}, new long[0]); // commits at 10, renewing A to [0, 10]
        s.run(at + 5_000);
        assertEquals("[0, 10]", lease(lease(s, A)));
        long t0 = at + 10_000;
        Object[] t1Read = new Object[1];
        CompletableFuture<Object> t1 = new CompletableFuture<>();
        Transaction[] t1tx = new Transaction[1];
        s.at(t0, () -> s.client(0).begin("rw", Inputs.NONE, t0).thenCompose(tx -> {
            t1tx[0] = tx;
            return tx.read("t", A);
        }).thenAccept(r -> t1Read[0] = r.getLong("v")));
        CompletableFuture<?> t2 = txn(s, t0 + 1_000, 1, t0 + 1_000, new long[0], new long[] {A});
        s.run(t0 + 5_000);
        assertEquals("committed", Scenario.outcome(t2), "T2 wrote A without waiting for the reader");
        s.at(t0 + 6_000, () -> t1tx[0].write(t.row(9L), D).thenCompose(x -> t1tx[0].commit()).whenComplete((v, e) -> {
            if (e != null) {
                t1.completeExceptionally(e);
            } else {
                t1.complete(v);
            }
        }));
        s.run(t0 + 20_000);
        assertEquals("committed", Scenario.outcome(t1), "T1 commits after T2 overwrote what it read");
        assertEquals((Object) 0L, t1Read[0], "T1 read A before T2's write");
        assertEquals("[11, 11]", lease(lease(s, A)), "T2 committed at rts + 1 = 11");
        assertEquals("[1, 1]", lease(lease(s, D)), "T1 committed at 1, inside A's lease [0, 10]");
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    /** Under 2PL with wait-die the same schedule kills the younger writer T2 (it would wait for T1's shared lock). */
    @Test
    void fig2Under2plWaitDieKillsTheWriter() {
        Scenario s = scenario(TreeSpec.leaf("2pl", "rw").option("deadlock", "wait-die"));
        Transaction[] t1tx = new Transaction[1];
        s.at(0, () -> s.client(0).begin("rw", Inputs.NONE, 0).thenCompose(tx -> {
            t1tx[0] = tx;
            return tx.read("t", A);
        }));
        CompletableFuture<?> t2 = txn(s, 1_000, 1, 1_000, new long[0], new long[] {A});
        s.run(5_000);
        assertTrue(Scenario.outcome(t2).startsWith("aborted: wait-die"), Scenario.outcome(t2));
    }

    /**
     * Fig. 1: T1 reads A [0, 1] and B [1, 2] and writes D (lease [0, 0]): its commit timestamp is max(0, 1, 0 + 1) =
     * 1, inside every lease. T2 writes A (rts + 1 = 2) and reads C [3, 3]: the leases do not overlap, so A's lease
     * is extended to 3 and T2 commits at 3. T2 commits first; T1 still commits, at 1.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sundial", "tictoc"})
    void fig1CommitTimestampsFromTheLeases(String cc) {
        Scenario s = scenario(TreeSpec.leaf(cc, "rw"));
        long at = bump(s, 0, B, 1); // B [1, 1]
        at = bump(s, at, C, 2); // C [2, 2]
        txn(s, at, 0, at, new long[] {B, C}, new long[0]); // at 2: B [1, 2]
        txn(s, at + 5_000, 0, at + 5_000, new long[] {A, B}, new long[0]); // at 1: A [0, 1]
        at = bump(s, at + 10_000, C, 1); // C [3, 3]
        s.run(at);
        assertEquals("[0, 1] [1, 2] [3, 3] [0, 0]", lease(lease(s, A)) + " " + lease(lease(s, B)) + " "
                + lease(lease(s, C)) + " " + lease(lease(s, D)));
        Transaction[] t1tx = new Transaction[1];
        CompletableFuture<Object> t1 = new CompletableFuture<>();
        long t0 = at + 5_000;
        s.at(t0, () -> s.client(0).begin("rw", Inputs.NONE, t0).thenCompose(tx -> {
            t1tx[0] = tx;
            return tx.read("t", A).thenCompose(x -> tx.read("t", B));
        }));
        CompletableFuture<?> t2 = txn(s, t0 + 1_000, 1, t0 + 1_000, new long[] {C}, new long[] {A});
        s.run(t0 + 6_000);
        assertEquals("committed", Scenario.outcome(t2));
        s.at(t0 + 7_000, () -> t1tx[0].write(t.row(9L), D).thenCompose(x -> t1tx[0].commit()).whenComplete((v, e) -> {
            if (e != null) {
                t1.completeExceptionally(e);
            } else {
                t1.complete(v);
            }
        }));
        s.run(t0 + 20_000);
        assertEquals("committed", Scenario.outcome(t1));
        assertEquals("[3, 3]", lease(lease(s, A)), "T2 committed at 3");
        assertEquals("[1, 1]", lease(lease(s, D)), "T1 committed at 1");
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    /** The prepare phase's abort reasons (Sundial §5.1, Fig. 6): the version changed, or another transaction holds it. */
    @ParameterizedTest
    @ValueSource(strings = {"sundial", "tictoc"})
    void leaseRenewalFails(String cc) {
        Scenario s = scenario(TreeSpec.leaf(cc, "rw"));
        long at = bump(s, 0, X, 5); // X [5, 5]
        // (b) wts changed: T1 reads A [0, 0], T2 overwrites A, T1 reads X [5, 5] and must renew A to 5
        Transaction[] t1 = new Transaction[1];
        s.at(at, () -> s.client(0).begin("rw", Inputs.NONE, at).thenCompose(tx -> {
            t1[0] = tx;
            return tx.read("t", A);
        }));
        txn(s, at + 1_000, 1, at + 1_000, new long[0], new long[] {A});
        CompletableFuture<Object> r1 = new CompletableFuture<>();
        s.at(at + 5_000, () -> t1[0].read("t", X).thenCompose(x -> t1[0].commit()).whenComplete((v, e) ->
                complete(r1, v, e)));
        s.run(at + 10_000);
        assertTrue(Scenario.outcome(r1).contains("lease renewal failed: wts changed"), Scenario.outcome(r1));
        // (c) locked: T3 reads B [0, 0]; T4 locks B (Sundial: its write; TicToc: its validation) and holds it
        long at2 = at + 20_000;
        Transaction[] t3 = new Transaction[1];
        Transaction[] t4 = new Transaction[1];
        s.at(at2, () -> s.client(0).begin("rw", Inputs.NONE, at2).thenCompose(tx -> {
            t3[0] = tx;
            return tx.read("t", B);
        }));
        s.at(at2 + 1_000, () -> s.client(1).begin("rw", Inputs.NONE, at2 + 1_000).thenCompose(tx -> {
            t4[0] = tx;
            return tx.write(t.row(3L), B).thenCompose(x -> tx.read("t", X));
        }));
        s.run(at2 + 4_000);
        if (cc.equals("tictoc")) {
            // hold T4 in its validation: commit it while T3 validates, the validation lock decides
            s.at(at2 + 5_000, () -> t4[0].commit());
        }
        CompletableFuture<Object> r3 = new CompletableFuture<>();
        s.at(at2 + 5_000, () -> t3[0].read("t", X).thenCompose(x -> t3[0].commit()).whenComplete((v, e) ->
                complete(r3, v, e)));
        s.run(at2 + 20_000);
        String o3 = Scenario.outcome(r3);
        assertTrue(o3.contains("lease renewal failed"), o3);
        if (cc.equals("sundial")) {
            assertTrue(o3.contains("is locked by another transaction"), o3);
        }
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    /** Wait-Die on write locks: a younger writer of a locked record dies; an older one waits. */
    @Test
    void sundialWriteLocksAreWaitDie() {
        Scenario s = scenario(TreeSpec.leaf("sundial", "rw"));
        Transaction[] holder = new Transaction[1];
        s.at(0, () -> s.client(0).begin("rw", Inputs.NONE, 100).thenCompose(tx -> {
            holder[0] = tx;
            return tx.write(t.row(1L), A);
        }));
        CompletableFuture<?> younger = txn(s, 1_000, 1, 200, new long[0], new long[] {A});
        CompletableFuture<?> older = txn(s, 1_500, 1, 50, new long[0], new long[] {A});
        s.run(5_000);
        assertTrue(Scenario.outcome(younger).startsWith("aborted: wait-die"), Scenario.outcome(younger));
        assertEquals("pending", Scenario.outcome(older), "the older writer waits for the lock");
        s.at(6_000, () -> holder[0].commit());
        s.run(20_000);
        assertEquals("committed", Scenario.outcome(older));
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    /**
     * TicToc's writes lock only at validation: W1 writes A first, W2 writes A later and commits first; W1 read X [5, 5]
     * so its commit timestamp 5 is after W2's 1 — it commits too, and its version moves on top of W2's.
     */
    @Test
    void ticTocLaterWriterCommitsFirst() {
        Scenario s = scenario(TreeSpec.leaf("tictoc", "rw"));
        long at = bump(s, 0, X, 5);
        Transaction[] w1 = new Transaction[1];
        s.at(at, () -> s.client(0).begin("rw", Inputs.NONE, at).thenCompose(tx -> {
            w1[0] = tx;
            return tx.read("t", X).thenCompose(x -> tx.write(t.row(11L), A));
        }));
        CompletableFuture<?> w2 = txn(s, at + 1_000, 1, at + 1_000, new long[0], new long[] {A});
        s.run(at + 5_000);
        assertEquals("committed", Scenario.outcome(w2));
        CompletableFuture<Object> r1 = new CompletableFuture<>();
        s.at(at + 6_000, () -> w1[0].commit().whenComplete((v, e) -> complete(r1, v, e)));
        s.run(at + 20_000);
        assertEquals("committed", Scenario.outcome(r1));
        assertEquals("[5, 5]", lease(lease(s, A)), "W1's version, at 5, is the latest");
        Row latest = s.cluster.dataServers().get(0).store().find(Key.of(t, A)).latestCommitted().value();
        assertEquals(11L, latest.getLong("v"));
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    /**
     * The cache (Sundial §4): a read-only transaction whose read hits the coordinator's cache commits without a
     * message when the cached lease covers it, even after the record changed at its data server (it is logically
     * earlier); one that needs the stale lease renewed fails ("wts changed", cached read) and the entry goes.
     */
    @Test
    void cachedReadsServeStaleVersionsSerializably() {
        Scenario s = scenario(TreeSpec.leaf("sundial", "rw").option("cache", "always-reuse"));
        long at = bump(s, 0, X, 5); // X [5, 5]; the bumps ran at coordinator 0 (client 0), caching nothing
        txn(s, at, 0, at, new long[] {A}, new long[0]); // caches A [0, 0] at coordinator 0
        s.run(at + 5_000);
        txn(s, at + 5_000, 1, at + 5_000, new long[0], new long[] {A}); // coordinator 1 writes A: [1, 1]
        s.run(at + 10_000);
        long before = toDataServers(s);
        Object[] seen = new Object[1];
        CompletableFuture<Object> ro = new CompletableFuture<>();
        s.at(at + 10_000, () -> s.client(0).begin("rw", Inputs.NONE, at + 10_000).thenCompose(tx ->
                tx.read("t", A).thenCompose(r -> {
                    seen[0] = r.getLong("v");
                    return tx.commit();
                })).whenComplete((v, e) -> complete(ro, v, e)));
        s.run(at + 15_000);
        assertEquals("committed", Scenario.outcome(ro));
        assertEquals((Object) 0L, seen[0], "the stale cached version, valid at commit timestamp 0");
        assertEquals((Object) 1L, s.cluster.ccCounters().get("sundial.cache.served"));
        assertNotNull(s.cluster.ccCounters().get("sundial.cache.lookups"));
        assertEquals(before, toDataServers(s), "no message to a data server");
        CompletableFuture<?> stale = txn(s, at + 20_000, 0, at + 20_000, new long[] {A, X}, new long[0]);
        s.run(at + 30_000);
        assertTrue(Scenario.outcome(stale).contains("lease renewal failed: wts changed"), Scenario.outcome(stale));
        assertTrue(Scenario.outcome(stale).contains("cached read"), Scenario.outcome(stale));
        assertEquals((Object) 1L, s.cluster.ccCounters().get("sundial.cache.renewalFailures"));
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    /** Requests of the phases and mechanism messages sent so far. */
    private static long toDataServers(Scenario s) {
        long n = 0;
        for (Class<?> c : List.of(ExecRequest.class, ExecBatch.class, ValidateRequest.class, CommitRequest.class,
                CcEnvelope.class)) {
            n += s.cluster.stats().count(c);
        }
        return n;
    }

    /**
     * Table-level leases (Sundial §4.3): once a renewal of one row of a table no transaction writes renewed the whole
     * table, a cached row of it needs no renewal of its own at that timestamp; without them it does.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aTableLeaseCoversTheCachedRowsOfAReadOnlyTable(boolean tableLeases) {
        Scenario s = scenario(TreeSpec.leaf("sundial", "rw").option("cache", "always-reuse")
                .option("tableLeases", tableLeases));
        long at = bump(s, 0, X, 5); // X [5, 5], written through coordinator 0 (no cache entry: writes do not insert)
        CompletableFuture<?> fill = readTxn(s, at, "ro", 0, "ro", 1); // misses: both rows cached with the lease [0, 0]
        s.run(at + 5_000);
        CompletableFuture<?> first = readTxn(s, at + 5_000, "t", X, "ro", 0); // at 5: ro[0] is renewed
        s.run(at + 10_000);
        long renewals = s.cluster.ccCounters().get("sundial.cache.renewals");
        CompletableFuture<?> second = readTxn(s, at + 10_000, "t", X, "ro", 1); // at 5 too: ro[1] from the cache
        s.run(at + 15_000);
        assertEquals("committed committed committed", Scenario.outcome(fill) + " " + Scenario.outcome(first) + " "
                + Scenario.outcome(second));
        assertEquals(1L, renewals, "the first renewal (ro[0])");
        assertEquals(tableLeases ? 1L : 2L, (long) s.cluster.ccCounters().get("sundial.cache.renewals"),
                tableLeases ? "ro[1] is covered by the table lease" : "ro[1] needs its own renewal");
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    /** A read-only transaction at {@code micros} through client 0: reads the (table, key) pairs given, commits. */
    private CompletableFuture<?> readTxn(Scenario s, long micros, Object... tableKeys) {
        CompletableFuture<Object> done = new CompletableFuture<>();
        s.at(micros, () -> s.client(0).begin("rw", Inputs.NONE, micros).thenCompose(tx -> {
            CompletableFuture<?> f = CompletableFuture.completedFuture(null);
            for (int i = 0; i < tableKeys.length; i += 2) {
                String table = (String) tableKeys[i];
                long key = ((Number) tableKeys[i + 1]).longValue();
                f = f.thenCompose(x -> tx.read(table, key));
            }
            return f.thenCompose(x -> tx.commit());
        }).whenComplete((v, e) -> complete(done, v, e)));
        return done;
    }

    private static void complete(CompletableFuture<Object> f, Object v, Throwable e) {
        if (e != null) {
            f.completeExceptionally(e);
        } else {
            f.complete(v);
        }
    }
}
