package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.in;
import static org.tebaldi.core.proc.Exprs.lit;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.proc.Exprs;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;

/**
 * TSO (dissertation §4.4.4): a promise makes a later reader wait for the write instead of forcing the writer to
 * abort; partition-by-instance leaves two flights' transactions unordered by timestamp.
 */
class TsoScenariosTest {
    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, -1, false, Catalog.longCol("v"));
    private final TableSchema seat = cat.add("seat", 2, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    TsoScenariosTest() {
        // the writer reads three other rows, each keyed by the previous one's value, then writes t[0] = 42 computed
        // from the last (four round trips even when operations are batched): its write comes late, but is promised
        // at start
        db.procedure(Procedure.define("writer", cat).params("k").body(b -> b
                .read("t", "a", lit(1L)).read("t", "b", Exprs.add(Exprs.field("a", "v"), lit(2L)))
                .read("t", "c", Exprs.add(Exprs.field("b", "v"), lit(3L)))
                .write("t", Exprs.row("v", Exprs.add(lit(42L), Exprs.mul(Exprs.field("c", "v"), lit(0L)))),
                        in("k"))).build());
        db.interactive("reader", true);
        db.interactive("book", false, "flight");
        db.interactive("look", true, "flight");
    }

    private CompletableFuture<Long> readT0(Scenario s) {
        return s.client(1).begin("reader", Inputs.NONE, 0).thenCompose((Transaction tx) -> tx.read("t", 0)
                .thenCompose(r -> tx.commit().thenApply(ci -> r.getLong("v"))));
    }

    private String runPromise(boolean promises) {
        Scenario s = new Scenario(db, CcTree.build(TreeSpec.leaf("tso", "writer", "reader", "book", "look")
                .option("promises", promises), "tso"), 1);
        for (long k = 0; k < 4; k++) {
            s.load(Key.of(t, k), t.row(0L));
        }
        s.start();
        CompletableFuture<?>[] w = new CompletableFuture<?>[1];
        CompletableFuture<?>[] r = new CompletableFuture<?>[1];
        s.at(0, () -> w[0] = s.client(0).call("writer", Inputs.of(0L), 0));
        s.at(300, () -> r[0] = readT0(s)); // starts after the writer (later timestamp), reads before its write
        s.run(200_000);
        assertTrue(s.check().serializable(), s.check()::summary);
        return Scenario.outcome(w[0]) + " | " + (r[0].isDone() && !r[0].isCompletedExceptionally() ? "read "
                + r[0].join() : Scenario.outcome(r[0]));
    }

    @Test
    void promiseMakesTheReaderWaitInsteadOfAbortingTheWriter() {
        assertEquals("committed | read 42", runPromise(true));
        String without = runPromise(false);
        assertTrue(without.startsWith("aborted: tso: a transaction with a later timestamp already read"), "was: " + without);
    }

    private long[] runFlights(TreeSpec bookLeaf) {
        // T_a (flight 1) starts first; T_b (flight 2) starts later, writes the shared row and commits; then T_a reads
        Scenario s = new Scenario(db, CcTree.build(TreeSpec.inner("2pl", bookLeaf,
                TreeSpec.leaf("2pl", "writer", "reader")), "flights"), 1);
        s.load(Key.of(seat, 0, 0), seat.row(0L));
        s.start();
        long[] seen = {-1, 0};
        s.at(0, () -> s.client(0).begin("look", Inputs.of(1L), 0).thenAccept(ta ->
                s.at(5_000, () -> ta.read("seat", 0, 0).thenAccept(r -> {
                    seen[0] = r.getLong("v");
                    ta.commit();
                }))));
        s.at(500, () -> s.client(1).begin("book", Inputs.of(2L), 0).thenCompose(tb ->
                tb.write(seat.row(7L), 0, 0).thenCompose(x -> tb.commit())).thenAccept(ci -> seen[1] = 1));
        s.run(100_000);
        assertTrue(s.check().serializable(), s.check()::summary);
        return seen;
    }

    @Test
    void partitionByInstanceKeepsTwoFlightsUnordered() {
        long[] perFlight = runFlights(TreeSpec.leaf("tso", "book", "look").instanceBy("flight"));
        assertEquals(1, perFlight[1], "T_b committed");
        assertEquals(7, perFlight[0], "different instances: TSO does not order them; the 2PL parent lets T_a read"
                + " T_b's committed write");
        long[] oneInstance = runFlights(TreeSpec.leaf("tso", "book", "look"));
        assertEquals(0, oneInstance[0], "one instance: T_a's smaller timestamp orders it before T_b; it reads the"
                + " older version");
    }

    @Test
    void scenarioRowsHaveTheSchemaTheyClaim() {
        Row r = seat.row(1L);
        assertEquals(List.of("v"), seat.columns().stream().map(c -> c.name()).toList());
        assertEquals(1L, r.getLong("v"));
    }
    @Test
    void aReadBelowTheTimestampOfARowInsertedLaterFindsNoRow() {
        // "look" (timestamp first) reads t[0]; "book" (later timestamp) then inserts seat (9, 9) and commits; look's
        // later read of that seat must return no row: the only version is above its timestamp.
        Scenario s = new Scenario(db, CcTree.build(TreeSpec.leaf("tso", "writer", "reader", "book", "look")
                .option("promises", false), "tso"), 1);
        s.load(Key.of(t, 0), t.row(0L));
        s.start();
        Object[] seen = {"not read"};
        CompletableFuture<Object> reader = new CompletableFuture<>();
        s.at(0, () -> s.client(0).begin("look", Inputs.of(1L), 0).thenCompose(tx -> tx.read("t", 0L)
                .thenApply(x -> tx)).thenAccept(tx -> s.at(20_000, () -> tx.read("seat", 9L, 9L).thenCompose(r -> {
                    seen[0] = r;
                    return tx.commit();
                }).whenComplete((v, e) -> reader.complete(e == null ? "committed" : e)))));
        CompletableFuture<Object> writer = new CompletableFuture<>();
        s.at(5_000, () -> s.client(1).begin("book", Inputs.of(2L), 0)
                .thenCompose(tx -> tx.write(seat.row(7L), 9L, 9L).thenCompose(x -> tx.commit()))
                .whenComplete((v, e) -> writer.complete(e == null ? "committed" : e)));
        s.run(200_000);
        assertEquals("committed", writer.getNow("unfinished"), "the insert commits");
        assertEquals("committed", reader.getNow("unfinished"), "the reader commits");
        assertEquals(null, seen[0], "the insert's timestamp is above the reader's");
        assertTrue(s.check().serializable(), s.check()::summary);
    }
}
