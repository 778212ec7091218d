package org.tebaldi.server.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * Runtime pipelining's rules (dissertation §4.4.2, §4.3; docs/mechanisms.md "Runtime pipelining"), each shown by a
 * scripted interleaving whose outcome changes without it. Three tables, one step each: {@code a} (1), {@code b} (2),
 * {@code c} (3); one RP leaf over every type, so every pair of transactions is cross-group; one data server.
 */
class RpScenariosTest {
    private final Catalog cat = new Catalog();
    private final TableSchema a = cat.add("a", 1, -1, false, Catalog.longCol("v"));
    private final TableSchema b = cat.add("b", 1, -1, false, Catalog.longCol("v"));
    private final TableSchema c = cat.add("c", 1, -1, false, Catalog.longCol("v"));
    private final Database db = new Database(cat);

    RpScenariosTest() {
        for (String t : List.of("W", "X", "Y", "Z")) {
            db.interactive(t, false, List.of("a", "b", "c"));
        }
    }

    private Scenario scenario(String stepRule, String dependencies) {
        return scenario(stepRule, dependencies, c -> c);
    }

    private Scenario scenario(String stepRule, String dependencies,
                              java.util.function.UnaryOperator<org.tebaldi.server.node.ClusterConfig> configure) {
        return scenario(stepRule, dependencies, null, configure);
    }

    private Scenario scenario(String stepRule, String dependencies, String deadlock,
                              java.util.function.UnaryOperator<org.tebaldi.server.node.ClusterConfig> configure) {
        TreeSpec leaf = TreeSpec.leaf("rp", "W", "X", "Y", "Z").option("stepTimeout", "1s").option("lockTimeout", "1s");
        if (deadlock != null) {
            leaf.option("deadlock", deadlock);
        }
        if (stepRule != null) {
            leaf.option("stepRule", stepRule);
        }
        if (dependencies != null) {
            leaf.option("dependencies", dependencies);
        }
        Scenario s = new Scenario(db, CcTree.build(leaf, "rp-rules"), 1, null, configure);
        for (long k = 0; k < 10; k++) {
            for (TableSchema t : List.of(a, b, c)) {
                s.load(Key.of(t, k), t.row(0L));
            }
        }
        return s.start();
    }

    private Transaction[] begin(Scenario s, long at, int client, String type) {
        Transaction[] t = new Transaction[1];
        s.at(at, () -> s.client(client).begin(type, Inputs.NONE, 0).thenAccept(x -> t[0] = x));
        return t;
    }

    /** Virtual time at which {@code f} completed, or -1 if it has not. */
    private static long[] doneAt(Scenario s, CompletableFuture<?> f) {
        long[] at = {-1};
        f.whenComplete((x, e) -> at[0] = s.sim.nowMicros());
        return at;
    }

    /**
     * T1 writes a0 and moves to step 3 (skipping b); T2 writes a0 after it (so depends on it) and then wants step 2.
     * §4.4.2: T1 executes a step larger than 2, so T2 goes on; the strict variant holds T2 until T1 commits.
     */
    @Test
    void aSkippedStepCountsAsFinished() {
        for (String rule : List.of("paper", "strict")) {
            Scenario s = scenario(rule, null);
            Transaction[] t1 = begin(s, 0, 0, "X");
            Transaction[] t2 = begin(s, 0, 1, "Y");
            s.at(1_000, () -> t1[0].write(a.row(1L), 0).thenCompose(x -> t1[0].write(c.row(1L), 0)));
            long[][] t2b = new long[1][];
            s.at(3_000, () -> t2[0].write(a.row(2L), 0)
                    .thenRun(() -> t2b[0] = doneAt(s, t2[0].write(b.row(2L), 1))));
            long[] t1Commit = new long[1];
            s.at(20_000, () -> t1Commit[0] = doneAt(s, t1[0].commit())[0]);
            CompletableFuture<?>[] c2 = new CompletableFuture<?>[1];
            s.at(40_000, () -> c2[0] = t2[0].commit());
            s.run(200_000);
            assertTrue(t2b[0] != null && t2b[0][0] > 0, rule + ": T2 wrote b1");
            if (rule.equals("paper")) {
                assertTrue(t2b[0][0] < 20_000, "T2 entered step 2 while T1 ran step 3: " + t2b[0][0]);
            } else {
                assertTrue(t2b[0][0] > 20_000, "strict: T2 entered step 2 only after T1 committed: " + t2b[0][0]);
            }
            assertEquals("committed", Scenario.outcome(c2[0]), rule);
            assertTrue(s.check().serializable(), s.check()::summary);
        }
    }

    /**
     * T1 writes a5 and asks to commit; durability is synchronous and its precommit record takes 20 ms to become durable, so its commit does too. T2
     * writes a5 after it and wants step 3. §4.4.2 read as the end of execution finishing every step: T1's step locks
     * go with its validation request and T2 goes on at once; the strict variant holds T1's last step until it commits.
     */
    @Test
    void theEndOfExecutionFinishesEveryStep() {
        for (String rule : List.of("paper", "strict")) {
            Scenario s = scenario(rule, null, c -> c.withDurability(
                    org.tebaldi.server.durability.DurabilityOptions.memory(1_000_000, true).withWriteLatency(20_000)));
            Transaction[] t1 = begin(s, 0, 1, "X");
            Transaction[] t2 = begin(s, 0, 0, "Y");
            long[][] c1 = new long[1][];
            s.at(1_000, () -> t1[0].write(a.row(2L), 5).thenRun(() -> c1[0] = doneAt(s, t1[0].commit())));
            long[][] t2c = new long[1][];
            s.at(3_000, () -> t2[0].write(a.row(3L), 5)
                    .thenRun(() -> t2c[0] = doneAt(s, t2[0].write(c.row(3L), 5))));
            CompletableFuture<?>[] c2 = new CompletableFuture<?>[1];
            s.at(60_000, () -> c2[0] = t2[0].commit());
            s.run(300_000);
            assertTrue(c1[0][0] > 20_000, rule + ": T1's commit waited for its durable precommit: " + c1[0][0]);
            assertTrue(t2c[0] != null && t2c[0][0] > 0, rule + ": T2 wrote c5");
            if (rule.equals("paper")) {
                assertTrue(t2c[0][0] < 15_000, "T2 went on once T1's execution ended: " + t2c[0][0]);
            } else {
                assertTrue(t2c[0][0] > 20_000, "strict: T2 waited for T1's commit, after its durable precommit: "
                        + t2c[0][0]);
            }
            assertEquals("committed", Scenario.outcome(c2[0]), rule);
            assertTrue(s.check().serializable(), s.check()::summary);
        }
    }

    /**
     * W1 writes a0 (then moves on), W2 writes a0 after it (then moves on), T writes a0: its direct dependency is W2
     * alone (§4.3), where the {@code all} variant also lists W1.
     */
    @Test
    void aWriteDependsOnTheLastWriterOnlyNotOnEveryEarlierOne() {
        long[] reported = new long[2];
        for (String deps : List.of("direct", "all")) {
            Scenario s = scenario(null, deps);
            Transaction[] w1 = begin(s, 0, 0, "W");
            Transaction[] w2 = begin(s, 0, 1, "X");
            Transaction[] t = begin(s, 0, 0, "Y");
            s.at(1_000, () -> w1[0].write(a.row(1L), 0).thenCompose(x -> w1[0].write(c.row(1L), 0)));
            s.at(3_000, () -> w2[0].write(a.row(2L), 0).thenCompose(x -> w2[0].write(b.row(2L), 0)));
            CompletableFuture<?>[] tw = new CompletableFuture<?>[1];
            s.at(6_000, () -> tw[0] = t[0].write(a.row(3L), 0));
            s.at(10_000, () -> w1[0].commit().thenCompose(x -> w2[0].commit()).thenCompose(x -> t[0].commit()));
            s.run(200_000);
            assertEquals("committed", Scenario.outcome(tw[0]), deps);
            reported[deps.equals("direct") ? 0 : 1] = s.cluster.ccCounters().get("rp.dependencies");
            assertTrue(s.check().serializable(), s.check()::summary);
        }
        assertEquals(2, reported[0], "direct: W2 on W1, T on W2");
        assertEquals(3, reported[1], "all: W2 on W1, T on W1 and W2");
    }

    /**
     * W writes a0, b0 and moves to step 3; U writes a0 after W (depends on W) and enters step 2; T writes a0 after U
     * (depends on U alone: direct) and waits to enter step 2 — until U aborts. U's version is gone, so T now follows W
     * on a0: U hands W on. T then waits for W to finish step 3 before entering it, and W reads c1 before T writes it.
     * Without the hand-on T writes c1 and ends its execution first, W reads T's c1, and both commit: W before T on
     * a0, T before W on c1 — a cycle.
     */
    @Test
    void anAbortedPredecessorHandsItsPredecessorsOn() {
        assertTrue(handOnRun(false), "with the hand-on the history is serializable");
        assertFalse(handOnRun(true), "without it the scripted run commits a cycle");
    }

    private boolean handOnRun(boolean ablate) {
        if (ablate) {
            System.setProperty(org.tebaldi.cc.rp.RuntimePipelining.ABLATE, "handOn");
        }
        try {
            Scenario s = scenario(null, null);
            Transaction[] w = begin(s, 0, 0, "W");
            Transaction[] u = begin(s, 0, 1, "X");
            Transaction[] t = begin(s, 0, 0, "Y");
            s.at(1_000, () -> w[0].write(a.row(1L), 0).thenCompose(x -> w[0].write(b.row(1L), 0))
                    .thenCompose(x -> w[0].write(c.row(1L), 0)));
            s.at(4_000, () -> u[0].write(a.row(2L), 0).thenCompose(x -> u[0].write(b.row(2L), 1)));
            s.at(8_000, () -> t[0].write(a.row(3L), 0).thenCompose(x -> t[0].write(b.row(3L), 2))
                    .thenCompose(x -> t[0].write(c.row(3L), 1)).thenCompose(x -> t[0].commit()));
            s.at(12_000, () -> u[0].abort());
            s.at(30_000, () -> w[0].read("c", 1).thenCompose(x -> w[0].commit()));
            s.run(300_000);
            return s.check().serializable();
        } finally {
            System.clearProperty(org.tebaldi.cc.rp.RuntimePipelining.ABLATE);
        }
    }

    /**
     * The RP stall in miniature (docs/mechanisms.md, "Runtime pipelining"): §4.4.2 isolates a step's operations with 2PL, so two transactions that
     * update the same rows of one step in opposite orders (TPC-C's new_order with its stock rows) deadlock on step
     * locks — T1 writes a1 then a2, T2 writes a2 then a1. By default ({@code deadlock: detect}) T2's request closes
     * the cycle and T2 aborts at once, so T1 goes on within milliseconds; with {@code deadlock: timeout} (the behaviour
     * before) both wait until the 1 s lock timeout ends T1's wait, and every transaction behind them in the pipeline
     * waits with them.
     */
    @Test
    void aDeadlockInsideAStepIsDetectedAtOnce() {
        long[] detect = stepDeadlock(null);
        assertTrue(detect[0] > 0 && detect[0] < 20_000, "detect: T1's second write went on at once: " + detect[0]);
        long[] timeout = stepDeadlock("timeout");
        assertTrue(timeout[0] > 1_000_000, "timeout: T1's second write waited for the 1 s lock timeout: " + timeout[0]);
    }

    /** Runs the opposite-order writes; returns when T1's second write completed (virtual µs; -1: never). */
    private long[] stepDeadlock(String deadlock) {
        Scenario s = scenario(null, null, deadlock, c -> c);
        Transaction[] t1 = begin(s, 0, 0, "X");
        Transaction[] t2 = begin(s, 0, 1, "Y");
        s.at(1_000, () -> t1[0].write(a.row(1L), 1));
        s.at(2_000, () -> t2[0].write(a.row(2L), 2));
        long[][] t1Second = new long[1][];
        CompletableFuture<?>[] t2Second = new CompletableFuture<?>[1];
        s.at(3_000, () -> t1Second[0] = doneAt(s, t1[0].write(a.row(1L), 2)));
        s.at(4_000, () -> t2Second[0] = t2[0].write(a.row(2L), 1));
        CompletableFuture<?>[] c1 = new CompletableFuture<?>[1];
        s.at(1_500_000, () -> c1[0] = t1[0].commit());
        s.run(3_000_000);
        if (deadlock == null) {
            assertTrue(Scenario.outcome(t2Second[0]).contains("deadlock"), "T2 aborted: " + Scenario.outcome(t2Second[0]));
            assertEquals("committed", Scenario.outcome(c1[0]), "T1");
        } else {
            assertTrue(Scenario.outcome(c1[0]).contains("lock wait timeout"), "T1, the first to wait, timed out: "
                    + Scenario.outcome(c1[0]));
        }
        assertTrue(s.check().serializable(), s.check()::summary);
        return t1Second[0];
    }
}
