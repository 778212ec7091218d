package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;

/** SSI across batches (dissertation §4.4.3): write skew is refused, and a pivot batch is detected. */
class SsiScenariosTest {
    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    SsiScenariosTest() {
        for (String n : List.of("A", "B", "C")) {
            db.interactive(n, false);
        }
    }

    private Scenario scenario(TreeSpec tree) {
        Scenario s = new Scenario(db, CcTree.build(tree, "scenario"), 2);
        for (long k = 0; k < 4; k++) {
            s.load(Key.of(t, k), t.row(0L));
        }
        return s.start();
    }

    /** Begins, reads {@code read}, waits until {@code writeAt}, writes {@code write}, commits. */
    private CompletableFuture<?> readThenWrite(Scenario s, int client, String type, long[] read, long write,
                                               long writeAt, List<Transaction> started) {
        CompletableFuture<Object> done = new CompletableFuture<>();
        s.client(client).begin(type, Inputs.NONE, 0).thenCompose(tx -> {
            started.add(tx);
            CompletableFuture<?> reads = CompletableFuture.completedFuture(null);
            for (long k : read) {
                reads = reads.thenCompose(x -> tx.read("t", k));
            }
            return reads.thenCompose(x -> {
                CompletableFuture<Object> later = new CompletableFuture<>();
                s.at(writeAt, () -> tx.write(t.row(1L), write).thenCompose(y -> tx.commit())
                        .whenComplete((v, e) -> {
                            if (e != null) {
                                later.completeExceptionally(e);
                            } else {
                                later.complete(v);
                            }
                        }));
                return later;
            });
        }).whenComplete((v, e) -> {
            if (e != null) {
                done.completeExceptionally(e);
            } else {
                done.complete(v);
            }
        });
        return done;
    }

    @Test
    void writeSkewAcrossBatchesIsRefused() {
        // two update groups: SSI batches them separately; T1 reads x,y writes x; T2 reads x,y writes y
        Scenario s = scenario(TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "A"), TreeSpec.leaf("2pl", "B"),
                TreeSpec.leaf("2pl", "C")));
        List<Transaction> started = new ArrayList<>();
        CompletableFuture<?> t1 = readThenWrite(s, 0, "A", new long[]{0, 1}, 0, 5_000, started);
        CompletableFuture<?> t2 = readThenWrite(s, 1, "B", new long[]{0, 1}, 1, 5_000, started);
        s.run(100_000);
        String o1 = Scenario.outcome(t1);
        String o2 = Scenario.outcome(t2);
        assertEquals(1, (o1.equals("committed") ? 1 : 0) + (o2.equals("committed") ? 1 : 0),
                "exactly one of the write-skewed transactions commits: " + o1 + " / " + o2);
        assertTrue((o1 + o2).contains("pivot"), "the other is refused as a pivot: " + o1 + " / " + o2);
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void writeSkewIsSerializableWithoutSsiOnlyIfItAborts() {
        // the same interleaving under one 2PL group deadlocks on the upgrades instead; never both commit unchecked
        Scenario s = scenario(TreeSpec.leaf("2pl", "A", "B", "C").option("lockTimeout", "20ms"));
        List<Transaction> started = new ArrayList<>();
        CompletableFuture<?> t1 = readThenWrite(s, 0, "A", new long[]{0, 1}, 0, 5_000, started);
        CompletableFuture<?> t2 = readThenWrite(s, 1, "B", new long[]{0, 1}, 1, 5_000, started);
        s.run(200_000);
        assertTrue(!Scenario.outcome(t1).equals("committed") || !Scenario.outcome(t2).equals("committed"));
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void pivotBatchIsDetectedAcrossDifferentMembers() {
        // group B's two members share a batch; A1 rw-> B1 (A1 reads k0, B1 writes k0) and B2 rw-> C1 (B2 reads
        // k1, C1 writes k1): batch B gets an incoming and an outgoing anti-dependency through different members.
        Scenario s = scenario(TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "A"), TreeSpec.leaf("2pl", "B"),
                TreeSpec.leaf("2pl", "C")).option("batchInterval", "50ms"));
        List<Transaction> started = new ArrayList<>();
        CompletableFuture<?> a1 = readThenWrite(s, 0, "A", new long[]{0}, 2, 6_000, started);
        CompletableFuture<?> b1 = readThenWrite(s, 1, "B", new long[]{3}, 0, 6_000, started);
        CompletableFuture<?> b2 = readThenWrite(s, 1, "B", new long[]{1}, 3, 12_000, started);
        CompletableFuture<?> c1 = readThenWrite(s, 0, "C", new long[]{2}, 1, 12_000, started);
        s.run(200_000);
        List<String> outcomes = List.of(Scenario.outcome(a1), Scenario.outcome(b1), Scenario.outcome(b2),
                Scenario.outcome(c1));
        assertTrue(outcomes.stream().anyMatch(o -> o.contains("pivot")), "a pivot batch was refused: " + outcomes);
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void snapshotReadOfARowInsertedAfterTheSnapshotFindsNoRow() {
        // A (read-only group) takes its snapshot by reading k0; B (update group) then inserts k9 and commits; A's
        // later read of k9 must return no row (the latest committed version is outside A's snapshot).
        Scenario s = scenario(TreeSpec.inner("ssi", TreeSpec.leaf("none", "A"), TreeSpec.leaf("2pl", "B", "C")));
        Object[] seen = {"not read"};
        CompletableFuture<Object> reader = new CompletableFuture<>();
        s.client(0).begin("A", Inputs.NONE, 0).thenCompose(tx -> tx.read("t", 0L).thenApply(x -> tx))
                .thenAccept(tx -> s.at(20_000, () -> tx.read("t", 9L).thenCompose(r -> {
                    seen[0] = r;
                    return tx.commit();
                }).whenComplete((v, e) -> reader.complete(e == null ? "committed" : e))));
        CompletableFuture<Object> writer = new CompletableFuture<>();
        s.at(5_000, () -> s.client(1).begin("B", Inputs.NONE, 0)
                .thenCompose(tx -> tx.write(t.row(7L), 9L).thenCompose(x -> tx.commit()))
                .whenComplete((v, e) -> writer.complete(e == null ? "committed" : e)));
        s.run(100_000);
        assertEquals("committed", writer.getNow("unfinished"), "the insert commits");
        assertEquals("committed", reader.getNow("unfinished"), "the reader commits");
        assertEquals(null, seen[0], "the reader's snapshot predates the insert");
        assertTrue(s.check().serializable(), s.check()::summary);
    }
}
