package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.ds.DataServer;

import static org.tebaldi.core.proc.Exprs.in;

/**
 * The client API beyond single operations: read-only declarations enforced whatever the tree, insert-or-update
 * inside a batch, reads across tables in one batch, and failures whose outcome the client cannot know.
 */
class ClientApiScenariosTest {
    private final Catalog cat = new Catalog();
    private final TableSchema a = cat.add("a", 1, -1, false, Catalog.longCol("v"));
    private final TableSchema b = cat.add("b", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    ClientApiScenariosTest() {
        db.interactive("upd", false, List.of("a", "b"));
        db.interactive("ro", true, List.of("a", "b"));
        db.procedure(Procedure.define("bump", cat).params("k").body(x -> x
                .read("a", "r", in("k"))).build());
    }

    private Scenario scenario(String treeYaml) {
        Scenario s = new Scenario(db, CcTree.build(TreeLoader.readSpec(treeYaml, "test"), "test"), 2);
        for (long k = 0; k < 4; k++) {
            s.load(Key.of(a, k), a.row(k));
            s.load(Key.of(b, k), b.row(10 * k));
        }
        return s.start();
    }

    private static Throwable failure(CompletableFuture<?> f) {
        assertTrue(f.isCompletedExceptionally(), "expected a failure, was " + Scenario.outcome(f));
        try {
            f.join();
            throw new AssertionError("unreachable");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    /** Trees where, before the check, a write by a declared read-only type went unregulated or was refused late. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{root: {cc: ssi, children: [{cc: 2pl, txns: [upd, bump]}, {cc: 2pl, txns: [ro]}]}}",
            "{root: {cc: 2pl, txns: [upd, ro, bump]}}",
            "{root: {cc: ssi, children: [{cc: 2pl, txns: [upd, bump]}, {cc: none, txns: [ro]}]}}",
            "{root: {cc: tso, txns: [upd, ro, bump]}}"})
    void aWriteByAReadOnlyTypeFailsItsTransactionWhateverTheTree(String tree) {
        Scenario s = scenario(tree);
        CompletableFuture<?>[] w = new CompletableFuture<?>[3];
        s.at(0, () -> w[0] = s.client(0).begin("ro", Inputs.NONE, 0).thenCompose((Transaction t) -> t.read("a", 1)
                .thenCompose(r -> t.write(a.row(99L), 1))));
        s.at(0, () -> w[1] = s.client(1).begin("ro", Inputs.NONE, 0).thenCompose((Transaction t) -> t.executeAll(
                List.of(Op.read(Key.of(b, 2)), Op.upsert(Key.of(b, 2), b.row(1L), r -> r)))));
        s.at(0, () -> w[2] = s.client(0).begin("upd", Inputs.NONE, 0).thenCompose((Transaction t) ->
                t.write(a.row(5L), 3).thenCompose(x -> t.commit())));
        s.run(100_000);
        Throwable e0 = failure(w[0]);
        assertInstanceOf(TxnAbortedException.class, e0);
        assertFalse(((TxnAbortedException) e0).retryable());
        assertEquals("ro is declared read-only but issued WRITE on a[1]; declare the type as an update type or remove"
                + " the write", e0.getMessage());
        assertTrue(failure(w[1]).getMessage().startsWith("ro is declared read-only but issued UPSERT on b[2]"),
                failure(w[1]).getMessage());
        assertEquals("committed", Scenario.outcome(w[2]));
        assertEquals(1L, latest(s, a, 1).getLong("v"), "the refused write left no trace");
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    private static Row latest(Scenario s, TableSchema t, long k) {
        for (DataServer d : s.cluster.dataServers()) {
            var c = d.store().find(Key.of(t, k));
            if (c != null && c.latestCommitted() != null) {
                return c.latestCommitted().value();
            }
        }
        return null;
    }

    @Test
    void upsertInsideABatchInsertsAbsentRowsAndUpdatesPresentOnes() {
        Scenario s = scenario("{root: {cc: 2pl, txns: [upd, ro, bump]}}");
        CompletableFuture<List<Row>> f = new CompletableFuture<>();
        s.at(0, () -> s.client(0).begin("upd", Inputs.NONE, 0).thenCompose((Transaction t) -> t.executeAll(List.of(
                Op.upsert(Key.of(a, 2), a.row(-1L), r -> a.row(r.getLong("v") + 100)),
                Op.upsert(Key.of(a, 7), a.row(70L), r -> a.row(r.getLong("v") + 100)),
                Op.update(Key.of(b, 8), r -> b.row(r.getLong("v") + 1)),
                Op.upsert(Key.of(a, 7), a.row(-1L), r -> a.row(r.getLong("v") + 1)),
                Op.read(Key.of(b, 8))))
                .thenCompose(rows -> t.commit().thenApply(ci -> rows))).whenComplete((rows, e) -> {
                    if (e != null) {
                        f.completeExceptionally(e);
                    } else {
                        f.complete(rows);
                    }
                }));
        s.run(100_000);
        List<Row> rows = f.join();
        assertEquals(102L, rows.get(0).getLong("v"), "present row updated");
        assertEquals(70L, rows.get(1).getLong("v"), "absent row inserted");
        assertNull(rows.get(2), "update of an absent row writes nothing");
        assertEquals(71L, rows.get(3).getLong("v"), "the batch's own insert is seen by the next upsert");
        assertNull(rows.get(4));
        assertEquals(102L, latest(s, a, 2).getLong("v"));
        assertEquals(71L, latest(s, a, 7).getLong("v"));
        assertNull(latest(s, b, 8));
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void readAllReadsAcrossTablesInOneBatch() {
        Scenario s = scenario("{root: {cc: 2pl, txns: [upd, ro, bump]}}");
        CompletableFuture<List<Row>> f = new CompletableFuture<>();
        s.at(0, () -> s.client(0).begin("ro", Inputs.NONE, 0).thenCompose((Transaction t) -> t.readAll(List.of(
                Key.of(b, 3), Key.of(a, 1), Key.of(a, 9), Key.of(b, 0)))).whenComplete((rows, e) -> {
                    if (e != null) {
                        f.completeExceptionally(e);
                    } else {
                        f.complete(rows);
                    }
                }));
        s.run(100_000);
        List<Row> rows = f.join();
        assertEquals(30L, rows.get(0).getLong("v"));
        assertEquals(1L, rows.get(1).getLong("v"));
        assertNull(rows.get(2));
        assertEquals(0L, rows.get(3).getLong("v"));
    }

    @Test
    void aCoordinatorFailureLeavesTheOutcomeUnknownOnlyWhereItMayHaveCommitted() {
        Scenario s = scenario("{root: {cc: 2pl, txns: [upd, ro, bump]}}");
        CompletableFuture<?>[] f = new CompletableFuture<?>[3];
        Transaction[] open = new Transaction[2];
        s.at(0, () -> s.client(0).begin("upd", Inputs.NONE, 0).thenAccept(t -> open[0] = t));
        s.at(0, () -> s.client(0).begin("upd", Inputs.NONE, 0).thenAccept(t -> open[1] = t));
        s.run(5_000);
        CompletableFuture<?> written = new CompletableFuture<>();
        s.at(5_001, () -> open[1].write(a.row(6L), 2).whenComplete((x, e) -> written.complete(null)));
        s.run(10_000);
        assertTrue(written.isDone() && !written.isCompletedExceptionally());
        s.at(10_001, () -> {
            f[0] = open[0].write(a.row(5L), 1); // no commit asked: cannot have committed
            f[1] = open[1].commit();
            f[2] = s.client(0).call("bump", Inputs.of(1L), 0);
        });
        // the coordinator's session ends while the commit and the procedure are in flight (100 µs each way)
        s.at(10_050, () -> s.sim.inject(NodeId.client(0), new NodeDown(NodeId.tc(0), "test: tc0 failed")));
        s.run(100_000);
        TxnAbortedException noCommit = (TxnAbortedException) failure(f[0]);
        assertFalse(noCommit.outcomeUnknown());
        assertFalse(noCommit.retryable());
        TxnAbortedException committing = (TxnAbortedException) failure(f[1]);
        assertTrue(committing.outcomeUnknown(), committing.getMessage());
        assertFalse(committing.retryable());
        assertTrue(((TxnAbortedException) failure(f[2])).outcomeUnknown());
        CompletableFuture<CommitInfo> later = s.client(0).call("bump", Inputs.of(1L), 0);
        s.run(200_000);
        TxnAbortedException unbound = (TxnAbortedException) failure(later);
        assertFalse(unbound.outcomeUnknown(), "a call refused at once did not run");
    }
}
