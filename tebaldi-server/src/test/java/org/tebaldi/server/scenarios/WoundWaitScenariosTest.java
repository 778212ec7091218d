package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * 2PL's {@code deadlock: wound-wait} (Rosenkrantz et al. 1978) on a scripted cluster (100 µs one-way delays, two
 * coordinators, two data servers; key k lives at data server k % 2): the classic two-server deadlock — the older
 * transaction holds k0 and asks for k1, the younger holds k1 and waits for k0 — is resolved at once: the older
 * wounds the younger (whose parked request at the other server aborts through its coordinator) and commits, long
 * before the 10 s lock-wait timeout. Under {@code deadlock: timeout} the same script stays deadlocked.
 */
class WoundWaitScenariosTest {
    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, 0, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    WoundWaitScenariosTest() {
        db.interactive("A", false);
    }

    private Scenario scenario(String deadlock) {
        Scenario s = new Scenario(db, CcTree.build(TreeSpec.leaf("2pl", "A").option("deadlock", deadlock)
                .option("lockTimeout", "10s"), "scenario"), 2);
        for (long k = 0; k < 2; k++) {
            s.load(Key.of(t, k), t.row(0L));
        }
        return s.start();
    }

    /**
     * Begins at {@code startAt} with {@code priority} (smaller = older), writes {@code first}, then at
     * {@code secondAt} writes {@code second}, then commits.
     */
    private CompletableFuture<String> twoWrites(Scenario s, int client, long priority, long startAt, long first,
                                                long secondAt, long second) {
        CompletableFuture<String> out = new CompletableFuture<>();
        s.at(startAt, () -> s.client(client).begin("A", Inputs.NONE, priority).thenCompose((Transaction tx) ->
                tx.write(t.row(priority), first).thenCompose(x -> {
                    CompletableFuture<Object> next = new CompletableFuture<>();
                    s.at(Math.max(secondAt, s.sim.nowMicros()), () -> tx.write(t.row(priority), second)
                            .thenCompose(y -> tx.commit()).whenComplete((v, e) -> {
                                if (e != null) {
                                    next.completeExceptionally(e);
                                } else {
                                    next.complete(v);
                                }
                            }));
                    return next;
                })).whenComplete((v, e) -> out.complete(Scenario.outcome(
                        e == null ? CompletableFuture.completedFuture(v) : CompletableFuture.failedFuture(e)))));
        return out;
    }

    @Test
    void theOlderWoundsTheYoungerAcrossServersAndNoDeadlockForms() {
        Scenario s = scenario("wound-wait");
        CompletableFuture<String> old = twoWrites(s, 0, 0, 0, 0, 3_000, 1);
        CompletableFuture<String> young = twoWrites(s, 1, 1_000, 1_000, 1, 2_000, 0);
        s.run(50_000);
        assertEquals("committed", old.join(), "the older transaction commits well before the 10 s lock timeout");
        assertTrue(young.join().startsWith("aborted: wound-wait: ") && young.join().contains(" wounded by older "),
                young.join());
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    @Test
    void theSameScriptDeadlocksUnderTheTimeoutPolicy() {
        Scenario s = scenario("timeout");
        CompletableFuture<String> old = twoWrites(s, 0, 0, 0, 0, 3_000, 1);
        CompletableFuture<String> young = twoWrites(s, 1, 1_000, 1_000, 1, 2_000, 0);
        s.run(50_000);
        assertFalse(old.isDone(), "deadlocked until the 10 s timeout");
        assertFalse(young.isDone());
    }
}
