package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;

/**
 * Silo-style OCC on a scripted cluster (100 µs one-way delays, two coordinators, two data servers; key k lives at
 * data server k % 2): a read set changed before validation aborts, a write–write race aborts the later validator
 * without waiting, read-only transactions commit while their reads stay current, write skew across two data servers
 * is refused thanks to the lock round, and under an SSI root the writer that overwrites a validated reader's read
 * commits after it.
 */
class OccScenariosTest {
    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, 0, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    OccScenariosTest() {
        db.interactive("A", false);
        db.interactive("B", false);
        db.interactive("R", true);
    }

    private Scenario scenario(TreeSpec tree) {
        Scenario s = new Scenario(db, CcTree.build(tree, "scenario"), 2);
        for (long k = 0; k < 4; k++) {
            s.load(Key.of(t, k), t.row(0L));
        }
        return s.start();
    }

    private static TreeSpec leaf() {
        return TreeSpec.leaf("occ", "A", "B", "R");
    }

    /** Begins {@code type} on {@code client} at {@code startAt}, runs {@code body}, commits at {@code commitAt}. */
    private static CompletableFuture<String> txn(Scenario s, int client, String type, long startAt, long commitAt,
                                                 Function<Transaction, CompletableFuture<?>> body) {
        CompletableFuture<String> out = new CompletableFuture<>();
        s.at(startAt, () -> s.client(client).begin(type, Inputs.NONE, startAt).thenCompose(tx -> body.apply(tx)
                .thenCompose(x -> {
                    CompletableFuture<Object> c = new CompletableFuture<>();
                    s.at(Math.max(commitAt, s.sim.nowMicros()), () -> tx.commit().whenComplete((v, e) -> {
                        if (e != null) {
                            c.completeExceptionally(e);
                        } else {
                            c.complete(v);
                        }
                    }));
                    return c;
                })).whenComplete((v, e) -> out.complete(Scenario.outcome(
                        e == null ? CompletableFuture.completedFuture(v) : CompletableFuture.failedFuture(e)))));
        return out;
    }

    private CompletableFuture<?> write(Transaction tx, long k, long v) {
        return tx.write(t.row(v), k);
    }

    private CompletableFuture<?> increment(Transaction tx, long k) {
        return tx.update("t", r -> r.with(0, (Long) r.get(0) + 1), k);
    }

    private long value(Scenario s, long k) {
        Row[] r = {null};
        s.at(s.sim.nowMicros() + 1, () -> s.client(0).begin("R", Inputs.NONE, 0).thenCompose(tx -> tx.read("t", k)
                .thenCompose(row -> {
                    r[0] = row;
                    return tx.commit();
                })));
        s.run(s.sim.nowMicros() + 50_000);
        return (Long) r[0].get(0);
    }

    @Test
    void aReadSetChangedBeforeValidationAborts() {
        Scenario s = scenario(leaf());
        CompletableFuture<String> reader = txn(s, 0, "A", 0, 5_000, tx -> tx.read("t", 0).thenCompose(x -> write(tx, 1,
                7)));
        CompletableFuture<String> writer = txn(s, 1, "B", 1_000, 1_000, tx -> increment(tx, 0));
        s.run(100_000);
        assertEquals("committed", writer.join());
        assertTrue(reader.join().startsWith("aborted: occ: read validation: t0[0] changed"), reader.join());
        assertTrue(s.check().serializable(), s.check()::summary);
        assertEquals(0L, value(s, 1), "the aborted transaction's private write never became visible");
    }

    @Test
    void aWriteWriteRaceAbortsTheLaterValidatorWithoutWaiting() {
        Scenario s = scenario(leaf());
        CompletableFuture<String> a = txn(s, 0, "A", 0, 5_000, tx -> write(tx, 0, 1));
        CompletableFuture<String> b = txn(s, 1, "B", 0, 5_000, tx -> write(tx, 0, 2));
        s.run(100_000);
        List<String> outcomes = List.of(a.join(), b.join());
        assertEquals(1, outcomes.stream().filter("committed"::equals).count(), outcomes.toString());
        assertTrue(outcomes.stream().anyMatch(o -> o.startsWith("aborted: occ: write set: t0[0] is locked by")),
                outcomes.toString());
        assertEquals(a.join().equals("committed") ? 1L : 2L, value(s, 0));
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void blindWritesThatDoNotOverlapInValidationBothCommitInLockOrder() {
        Scenario s = scenario(leaf());
        // `first` writes first and validates last
        CompletableFuture<String> first = txn(s, 0, "A", 0, 9_000, tx -> write(tx, 0, 1));
        CompletableFuture<String> second = txn(s, 1, "B", 2_000, 2_000, tx -> write(tx, 0, 2));
        s.run(100_000);
        assertEquals(List.of("committed", "committed"), List.of(first.join(), second.join()));
        assertEquals(1L, value(s, 0), "the last to lock and commit is the last in the version order");
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void readOnlyTransactionsCommitWhileTheirReadsStayCurrent() {
        Scenario s = scenario(leaf());
        CompletableFuture<String> ro = txn(s, 0, "R", 0, 3_000, tx -> tx.read("t", 0)
                .thenCompose(x -> tx.read("t", 1)));
        CompletableFuture<String> other = txn(s, 1, "B", 0, 1_000, tx -> increment(tx, 2));
        CompletableFuture<String> stale = txn(s, 0, "R", 10_000, 15_000, tx -> tx.read("t", 0)
                .thenCompose(x -> tx.read("t", 1)));
        CompletableFuture<String> writer = txn(s, 1, "B", 11_000, 11_000, tx -> increment(tx, 1));
        s.run(100_000);
        assertEquals("committed", ro.join(), "a write elsewhere does not disturb a reader");
        assertEquals("committed", other.join());
        assertEquals("committed", writer.join());
        assertTrue(stale.join().startsWith("aborted: occ: read validation: t0[1] changed"), stale.join());
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void writeSkewAcrossTwoDataServersIsRefused() {
        // T reads x (ds0) and writes y (ds1); U reads y and writes x; both commit at once. Validating each server
        // on its own (lock there, then validate there) would let both pass — each server sees the other's lock only
        // after its own read was validated. The lock round holds both write locks before either read is validated. The
        // links tc0 -> ds1 and tc1 -> ds0 are 50 µs slower: each server hears first from the transaction that reads
        // there.
        Scenario s = scenario(leaf());
        s.sim.faults().delaySpike(NodeId.tc(0), NodeId.ds(1), 0, 100_000, 50);
        s.sim.faults().delaySpike(NodeId.tc(1), NodeId.ds(0), 0, 100_000, 50);
        CompletableFuture<String> tt = txn(s, 0, "A", 0, 5_000, tx -> tx.read("t", 0)
                .thenCompose(x -> write(tx, 1, 1)));
        CompletableFuture<String> uu = txn(s, 1, "B", 0, 5_000, tx -> tx.read("t", 1)
                .thenCompose(x -> write(tx, 0, 1)));
        s.run(100_000);
        List<String> outcomes = List.of(tt.join(), uu.join());
        assertTrue(outcomes.stream().anyMatch(o -> o.startsWith("aborted: occ: read validation")), outcomes.toString());
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void underAnSsiRootTheWriterOfAValidatedReadCommitsAfterTheReader() {
        // T reads x (ds0) and writes y (ds1); its read of x passes validation, then its vote from ds1 is delayed.
        // U then overwrites x. OCC orders T before U, so U must take its commit timestamp after T's: else a snapshot
        // reader R between the two sees U's x but not T's y (R -rw-> T -rw-> U -wr-> R, G2).
        Scenario s = scenario(TreeSpec.inner("ssi", TreeSpec.leaf("occ", "A", "B"), TreeSpec.leaf("none", "R")));
        s.sim.faults().delaySpike(NodeId.ds(1), NodeId.tc(0), 5_350, 5_450, 20_000); // T's vote from ds1, sent at 5.4 ms
        CompletableFuture<String> tt = txn(s, 0, "A", 0, 5_000, tx -> tx.read("t", 0)
                .thenCompose(x -> write(tx, 1, 1)));
        CompletableFuture<String> uu = txn(s, 1, "B", 6_000, 6_000, tx -> increment(tx, 0));
        CompletableFuture<String> rr = txn(s, 1, "R", 10_000, 10_000, tx -> tx.read("t", 0)
                .thenCompose(x -> tx.read("t", 1)));
        s.run(200_000);
        assertEquals(List.of("committed", "committed", "committed"), List.of(tt.join(), uu.join(), rr.join()));
        assertTrue(s.check().serializable(), s.check()::summary);
    }
}
