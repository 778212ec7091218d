package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
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
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.node.Partitioner;
import org.tebaldi.server.node.Placement;

/**
 * Chiller's two-region execution on a scripted cluster (100 µs one-way delays, two coordinators, two data servers;
 * key k lives at data server k % 2; keys 0 and 2 are hot, both at data server 0): a hot record's lock is held only
 * for the inner region (a second writer takes it after the first one's inner host voted, before its commit), an
 * outer-region conflict aborts before the inner region is dispatched (the hot record is never locked), and under
 * contention nothing aborts after dispatch. Each timing test runs the same script under NO_WAIT 2PL, where the
 * outcome differs — so it fails without two-region execution.
 */
class ChillerScenariosTest {
    private final Catalog cat = new Catalog();
    private final TableSchema t = cat.add("t", 1, 0, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    ChillerScenariosTest() {
        db.interactive("A", false);
        db.interactive("B", false);
        db.interactive("R", true);
    }

    private Scenario scenario(String mechanism) {
        TreeSpec leaf = TreeSpec.leaf(mechanism, "A", "B", "R");
        if (mechanism.equals("2pl")) {
            leaf = leaf.option("deadlock", "no-wait");
        }
        Partitioner p = new Placement(Map.of(Key.of(t, 0L), 0, Key.of(t, 2L), 0), Partitioner.byTable(cat, 2));
        Scenario s = new Scenario(db, CcTree.build(leaf, "scenario"), 2, p);
        for (long k = 0; k < 6; k++) {
            s.load(Key.of(t, k), t.row(0L));
        }
        return s.start();
    }

    /** A future completed at virtual time {@code micros}. */
    private static CompletableFuture<Void> at(Scenario s, long micros) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        s.at(micros, () -> f.complete(null));
        return f;
    }

    /** Begins {@code type} on {@code client} at {@code startAt}, runs {@code body}, commits at {@code commitAt}. */
    private static CompletableFuture<String> txn(Scenario s, int client, String type, long startAt, long commitAt,
                                                 Function<Transaction, CompletableFuture<?>> body) {
        CompletableFuture<String> out = new CompletableFuture<>();
        s.at(startAt, () -> s.client(client).begin(type, Inputs.NONE, startAt).thenCompose(tx -> body.apply(tx)
                .thenCompose(x -> at(s, Math.max(commitAt, s.sim.nowMicros())).thenCompose(y -> tx.commit())))
                .whenComplete((v, e) -> out.complete(Scenario.outcome(
                        e == null ? CompletableFuture.completedFuture(v) : CompletableFuture.failedFuture(e)))));
        return out;
    }

    private Op increment(long k) {
        return Op.update(Key.of(t, k), r -> r.with(0, (Long) r.get(0) + 1));
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

    /**
     * A writes cold key 1 and hot key 0 and asks to commit at 1000 µs (its validation reaches the servers at 1200, the
     * commit at 1400); B's increment of hot key 0 reaches data server 0 at 1300: under chiller A's inner region has
     * committed there and released the lock, so B takes it, reads A's write and commits after A.
     */
    private List<String> secondWriterAfterTheVote(String mechanism) {
        Scenario s = scenario(mechanism);
        CompletableFuture<String> a = txn(s, 0, "A", 0, 1_000,
                tx -> tx.executeAll(List.of(increment(1), increment(0))));
        CompletableFuture<String> b = txn(s, 1, "B", 0, 0, tx -> at(s, 1_100).thenCompose(x -> tx.execute(increment(0))));
        s.run(100_000);
        assertTrue(s.check().serializable(), s.check()::summary);
        return List.of(a.join(), b.join(), String.valueOf(value(s, 0)));
    }

    @Test
    void aHotRecordsLockIsHeldOnlyForTheInnerRegion() {
        assertEquals(List.of("committed", "committed", "2"), secondWriterAfterTheVote("chiller"));
        List<String> twoPl = secondWriterAfterTheVote("2pl");
        assertEquals("committed", twoPl.get(0));
        assertTrue(twoPl.get(1).startsWith("aborted: no-wait"), twoPl.toString());
    }

    /**
     * C holds cold key 1 from 0 µs to its commit at 5000; A (at 500) writes key 1 and hot key 0 in one batch. Its
     * write of key 1 fails NO_WAIT at data server 1; under chiller the hot operation waited for it and is never sent,
     * so D's increment of key 0, reaching data server 0 at 800 µs (while A's request would hold it otherwise),
     * commits.
     */
    private List<String> outerConflict(String mechanism) {
        Scenario s = scenario(mechanism);
        CompletableFuture<String> c = txn(s, 0, "B", 0, 5_000, tx -> tx.execute(increment(1)));
        CompletableFuture<String> a = txn(s, 1, "A", 0, 0, tx -> at(s, 500).thenCompose(x ->
                tx.executeAll(List.of(increment(1), increment(0)))));
        CompletableFuture<String> d = txn(s, 2, "B", 0, 0, tx -> at(s, 600).thenCompose(x -> tx.execute(increment(0))));
        s.run(100_000);
        assertTrue(s.check().serializable(), s.check()::summary);
        return List.of(c.join(), a.join(), d.join());
    }

    @Test
    void anOuterRegionConflictAbortsBeforeDispatch() {
        List<String> chiller = outerConflict("chiller");
        assertEquals("committed", chiller.get(0));
        assertTrue(chiller.get(1).startsWith("aborted: no-wait") && chiller.get(1).contains("t0[1]"), chiller.toString());
        assertEquals("committed", chiller.get(2), chiller.toString());
        List<String> twoPl = outerConflict("2pl");
        assertTrue(twoPl.get(2).startsWith("aborted: no-wait") && twoPl.get(2).contains("t0[0]"), twoPl.toString());
    }

    /**
     * Six clients each run 40 transactions (retrying aborts) that increment a random cold key, then a random hot
     * key: every abort is a NO_WAIT conflict at a lock — in the outer region or at the inner host's dispatch — and
     * none comes after the inner host voted (no "aborted read" of a released version, no failed dependency); the
     * history is serializable and no increment is lost.
     */
    @Test
    void nothingAbortsAfterDispatch() {
        Scenario s = scenario("chiller");
        List<String> aborts = new ArrayList<>();
        int[] committed = {0};
        Random rnd = new Random(5);
        for (int c = 0; c < 6; c++) {
            int client = c;
            s.at(c * 37L, () -> loop(s, client, 40, rnd, aborts, committed));
        }
        s.run(5_000_000);
        assertEquals(240, committed[0]);
        assertTrue(aborts.stream().allMatch(a -> a.startsWith("no-wait")), aborts.toString());
        assertTrue(aborts.stream().anyMatch(a -> a.contains("t0[0]") || a.contains("t0[2]")), "hot conflicts happen");
        long total = 0;
        for (long k = 0; k < 6; k++) {
            total += value(s, k);
        }
        assertEquals(2 * 240, total);
        assertTrue(s.check().serializable(), s.check()::summary);
    }

    private void loop(Scenario s, int client, int left, Random rnd, List<String> aborts, int[] committed) {
        if (left == 0) {
            return;
        }
        long cold = new long[] {1, 3, 4, 5}[rnd.nextInt(4)];
        long hot = rnd.nextBoolean() ? 0 : 2;
        s.client(client).begin("A", Inputs.NONE, s.sim.nowMicros()).thenCompose(tx ->
                tx.executeAll(List.of(increment(cold), increment(hot))).thenCompose(x -> tx.commit()))
                .whenComplete((v, e) -> {
                    if (e == null) {
                        committed[0]++;
                        s.at(s.sim.nowMicros() + 1, () -> loop(s, client, left - 1, rnd, aborts, committed));
                    } else {
                        Throwable cause = e.getCause() != null ? e.getCause() : e;
                        aborts.add(cause.getMessage());
                        s.at(s.sim.nowMicros() + 1 + rnd.nextInt(300), () -> loop(s, client, left, rnd, aborts,
                                committed));
                    }
                });
    }
}
