package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;

/**
 * The framework's "no aborted reads" guarantee (docs/mechanisms.md, the framework) for an operation that was parked
 * when its transaction became doomed: the operation must fail, not hand the body a value read after the writer it
 * depends on aborted (burn seed 1695: order_status saw new_order's index entry, then — its read parked in SSI's
 * wait for the prepared new_order, which aborted — no order).
 */
class AbortedReadScenariosTest {
    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    AbortedReadScenariosTest() {
        db.interactive("W", false);
        db.interactive("R", false);
        db.interactive("L", false);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aReadParkedWhenItsTransactionIsDoomedByAnAbortedWriterFails() {
        // 2pl{tso[W,R], 2pl[L]}, one data server. W (earlier TSO timestamp) writes k0; L (another group) writes k1 and
        // holds the inner 2PL's X lock; R reads W's uncommitted k0 (TSO returns it, the inner 2PL keeps the child's
        // proposal), then its read of k1 parks on L's lock. W aborts: R is doomed (aborted read). L commits and the
        // lock goes to R's parked read, which must now fail instead of returning L's k1.
        Scenario s = new Scenario(db, CcTree.build(TreeSpec.inner("2pl", TreeSpec.leaf("tso", "W", "R"),
                TreeSpec.leaf("2pl", "L")).option("lockTimeout", "100ms"), "aborted-read"), 1);
        for (long k = 0; k < 2; k++) {
            s.load(Key.of(t, k), t.row(0L));
        }
        s.start();
        Transaction[] w = new Transaction[1];
        Transaction[] l = new Transaction[1];
        CompletableFuture<Row>[] readK0 = new CompletableFuture[1];
        CompletableFuture<Row>[] readK1 = new CompletableFuture[1];
        s.at(0, () -> s.client(0).begin("W", Inputs.NONE, 0).thenAccept(tx -> {
            w[0] = tx;
            tx.write(t.row(1L), 0);
        }));
        s.at(0, () -> s.client(1).begin("L", Inputs.NONE, 0).thenAccept(tx -> {
            l[0] = tx;
            tx.write(t.row(2L), 1);
        }));
        s.at(3_000, () -> s.client(2).begin("R", Inputs.NONE, 0).thenAccept(tx -> {
            readK0[0] = tx.read("t", 0);
            readK0[0].thenRun(() -> readK1[0] = tx.read("t", 1));
        }));
        s.at(10_000, () -> w[0].abort());
        s.at(15_000, () -> l[0].commit());
        s.run(100_000);

        assertEquals(1L, readK0[0].join().getLong("v"), "R read W's uncommitted k0");
        assertTrue(readK1[0] != null && readK1[0].isDone(), "R's read of k1 ended");
        String k1 = Scenario.outcome(readK1[0]);
        assertTrue(k1.startsWith("aborted") && k1.contains("aborted read"),
                "the parked read of a transaction doomed by W's abort fails, not returns a value: " + k1);
        assertTrue(s.check().serializable(), s.check()::summary);
    }
}
