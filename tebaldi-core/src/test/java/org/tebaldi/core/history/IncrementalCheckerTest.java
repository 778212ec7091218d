package org.tebaldi.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.history.HistoryFixture.T0;
import static org.tebaldi.core.history.HistoryFixture.k;
import static org.tebaldi.core.history.HistoryFixture.t;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;

/**
 * The streamed, bounded-memory check ({@link IncrementalChecker}) against the batch check
 * ({@link SerializabilityChecker}): same verdicts and counts on the anomaly histories and on random histories fed
 * in random chunks, cycles whose edges arrive over many chunks, and a bounded number of held transactions on a
 * long history.
 */
class IncrementalCheckerTest {
    private static final Key X = k(1);
    private static final Key Y = k(2);
    private static final Key Z = k(3);
    private static final long A = t(0, 1);
    private static final long B = t(1, 1);
    private static final long C = t(2, 7);

    /** The histories of AnomalyDetectionTest and SerializableHistoriesTest, by name. */
    static Map<String, Supplier<HistoryFixture>> fixtures() {
        Map<String, Supplier<HistoryFixture>> m = new LinkedHashMap<>();
        m.put("write skew (G2)", () -> new HistoryFixture()
                .read(A, X, T0).read(A, Y, T0).write(A, X).read(B, X, T0).read(B, Y, T0).write(B, Y)
                .commit(A, "A").commit(B, "B").order(X, T0, A).order(Y, T0, B));
        m.put("lost update (G2)", () -> new HistoryFixture()
                .read(A, X, T0).read(B, X, T0).write(A, X).write(B, X).commit(A, "Inc").commit(B, "Inc")
                .order(X, T0, A, B));
        m.put("read skew (G2)", () -> new HistoryFixture()
                .write(A, X).write(A, Y).commit(A, "W").read(C, X, A).read(C, Y, T0).commit(C, "R")
                .order(X, T0, A).order(Y, T0, A));
        m.put("aborted read (G1a)", () -> new HistoryFixture()
                .write(A, X).abort(A, "W").read(B, X, A).commit(B, "R").order(X, T0));
        m.put("unfinished read (G1a)", () -> new HistoryFixture()
                .write(A, X).read(B, X, A).commit(B, "R").order(X, T0));
        m.put("intermediate read (G1b)", () -> new HistoryFixture()
                .write(A, X).read(B, X, A, 1).write(A, X).commit(A, "W").commit(B, "R").order(X, T0, A));
        m.put("mutual reads (G1c)", () -> new HistoryFixture()
                .write(A, X).read(B, X, A).write(B, Y).read(A, Y, B).commit(A, "A").commit(B, "B")
                .order(X, T0, A).order(Y, T0, B));
        m.put("contradictory orders (G1c)", () -> new HistoryFixture()
                .write(A, X).write(A, Y).write(B, X).write(B, Y).commit(A, "A").commit(B, "B")
                .order(X, T0, A, B).order(Y, T0, B, A));
        m.put("G1c component with an rw member", () -> new HistoryFixture()
                .write(A, X).read(B, X, A).write(B, Y).read(A, Y, B).read(C, X, A).read(C, Z, T0).write(A, Z)
                .commit(A, "A").commit(B, "B").commit(C, "C").order(X, T0, A).order(Y, T0, B).order(Z, T0, A));
        long d = t(3, 1);
        m.put("two components (2x G2)", () -> new HistoryFixture()
                .read(A, X, T0).write(A, Y).read(B, Y, T0).write(B, X)
                .read(C, Z, T0).write(C, k(4)).read(d, k(4), T0).write(d, Z)
                .commit(A, "A").commit(B, "B").commit(C, "C").commit(d, "D")
                .order(X, T0, B).order(Y, T0, A).order(Z, T0, d).order(k(4), T0, C));
        m.put("insert skew (G2)", () -> new HistoryFixture()
                .read(A, X, T0).read(B, Y, T0).write(A, Y).write(B, X).commit(A, "A").commit(B, "B")
                .order(X, B).order(Y, A));
        m.put("50 aborted reads", () -> {
            HistoryFixture f = new HistoryFixture().write(A, X).abort(A, "W").order(X, T0);
            for (int i = 1; i <= 50; i++) {
                f.read(t(5, i), X, A).commit(t(5, i), "R");
            }
            return f;
        });
        m.put("serial chain (serializable)", () -> {
            HistoryFixture f = new HistoryFixture();
            long[] order = new long[11];
            long prev = T0;
            for (int i = 1; i <= 10; i++) {
                long txn = t(i % 3, i);
                f.read(txn, X, prev).write(txn, X).read(txn, Y, T0).commit(txn, "Inc");
                order[i] = txn;
                prev = txn;
            }
            return f.order(X, order);
        });
        return m;
    }

    static List<HistoryLog> logs(HistoryFixture f) {
        return List.of(f.ds, f.tc);
    }

    /** Same verdict, violation counts per type, transaction, read and edge counts. */
    static void assertSame(CheckResult batch, CheckResult stream, String what) {
        String both = what + "\nbatch: " + batch.summary() + "\nstream: " + stream.summary();
        assertEquals(batch.serializable(), stream.serializable(), both);
        for (ViolationType t : ViolationType.values()) {
            assertEquals(batch.violationCount(t), stream.violationCount(t), t + " " + both);
        }
        assertEquals(batch.committed(), stream.committed(), both);
        assertEquals(batch.aborted(), stream.aborted(), both);
        assertEquals(batch.unfinished(), stream.unfinished(), both);
        assertEquals(batch.reads(), stream.reads(), both);
        assertEquals(batch.edges(EdgeType.WW), stream.edges(EdgeType.WW), both);
        assertEquals(batch.edges(EdgeType.WR), stream.edges(EdgeType.WR), both);
        assertTrue(stream.edges(EdgeType.RW) <= batch.edges(EdgeType.RW), both);
    }

    @Test
    void anomalyHistoriesInRandomChunksGiveTheBatchVerdict() {
        fixtures().forEach((name, f) -> {
            CheckResult batch = SerializabilityChecker.check(History.merge(logs(f.get())));
            for (long seed = 0; seed < 40; seed++) {
                CheckResult stream = StreamFeed.check(logs(f.get()), seed);
                assertSame(batch, stream, name + ", seed " + seed);
                for (Violation v : stream.violations()) {
                    Set<Long> cycleTxns = Set.copyOf(v.txns());
                    assertTrue(batch.violations(v.type()).stream().anyMatch(b -> Set.copyOf(b.txns())
                            .containsAll(cycleTxns) || cycleTxns.containsAll(b.txns())), name + ": " + v);
                }
            }
        });
    }

    @Test
    void randomHistoriesGiveTheBatchVerdictWhateverTheChunking() {
        int unserializable = 0;
        for (long seed = 0; seed < 300; seed++) {
            List<HistoryLog> logs = RandomHistories.generate(seed, 60 + (int) (seed % 7) * 20, 6 + (int) (seed % 5));
            CheckResult batch = SerializabilityChecker.check(History.merge(logs));
            CheckResult stream = new StreamFeed(History.merge(logs), seed, 1 + (int) (seed % 3),
                    0.05 + (seed % 4) * 0.1, 0.1 + (seed % 3) * 0.2).run();
            assertSame(batch, stream, "seed " + seed);
            if (seed % 10 == 0) {
                // without pruning, the rw edges out of dropped readers are counted too: every count is the batch's
                CheckResult unpruned = new StreamFeed(History.merge(logs), seed, 2, 0.3, 0.0).run();
                assertEquals(batch.edgeCounts(), unpruned.edgeCounts(), "seed " + seed);
                assertSame(batch, unpruned, "seed " + seed + ", no pruning");
            }
            unserializable += batch.serializable() ? 0 : 1;
        }
        assertTrue(unserializable > 100, "too few random histories with violations: " + unserializable);
    }

    @Test
    void cycleWhoseEdgesArriveOverManyChunksIsFound() {
        // T_i reads k_i before T_(i-1) writes it (rw T_i -> T_(i-1)); T_1 reads k_1 before T_50 writes it: one
        // G2 cycle of 50 transactions, each handed over in its own chunk with a pruning pass after each.
        int n = 50;
        IncrementalChecker c = new IncrementalChecker(2, 10);
        for (int i = 1; i <= n; i++) {
            long id = t(1, i);
            HistoryLog ds = new HistoryLog();
            HistoryLog tc = new HistoryLog();
            ds.read(id, k(i), T0, 1);
            ds.write(id, k(i % n + 1), 1);
            if (i > 1) {
                ds.finalVersion(k(i), t(1, i - 1), 1);
            }
            if (i == n) {
                ds.finalVersion(k(1), id, 1);
            }
            tc.outcome(id, true, "Step");
            c.add(0, ds);
            c.prune();
            c.add(1, tc);
            c.prune();
        }
        c.add(0, new HistoryLog());
        c.add(1, new HistoryLog());
        c.prune();
        assertEquals(0, c.held(), "every transaction is final once the last version is");
        CheckResult r = c.finish();
        assertFalse(r.serializable(), r::summary);
        assertEquals(1, r.violationCount(ViolationType.ANTI_DEPENDENCY_CYCLE), r::summary);
        assertEquals(n, r.violations().get(0).txns().size(), r::summary);
    }

    @Test
    void longSerialHistoryIsCheckedWithFewTransactionsHeld() {
        // 100k read-modify-write transactions over 1000 keys, handed over as a running cluster would: a
        // transaction's version becomes final (settled) one hand-over after it committed.
        int n = 100_000;
        int keys = 1000;
        IncrementalChecker c = new IncrementalChecker(2, 10);
        HistoryLog ds = new HistoryLog();
        HistoryLog tc = new HistoryLog();
        long[] last = new long[keys];
        java.util.List<long[]> settling = new java.util.ArrayList<>();
        java.util.Random rnd = new java.util.Random(7);
        int maxHeldAfterPrune = 0;
        for (int i = 1; i <= n; i++) {
            long id = t(i % 4, i);
            int k = rnd.nextInt(keys);
            int other = rnd.nextInt(keys);
            ds.read(id, k(other), last[other], 1);
            ds.read(id, k(k), last[k], 1);
            ds.write(id, k(k), 1);
            tc.outcome(id, true, "Rmw");
            last[k] = id;
            settling.add(new long[] {k, id});
            if (i % 50 == 0) {
                c.add(0, ds);
                c.add(1, tc);
                ds = new HistoryLog();
                tc = new HistoryLog();
                for (long[] v : settling) {
                    ds.finalVersion(k((int) v[0]), v[1], 1);
                }
                settling.clear();
                c.prune();
                maxHeldAfterPrune = Math.max(maxHeldAfterPrune, c.held());
            }
        }
        c.add(0, ds);
        c.add(1, tc);
        assertTrue(maxHeldAfterPrune <= 150, "held " + maxHeldAfterPrune + " after a pass");
        assertTrue(c.maxHeld() <= 200, "held at most " + c.maxHeld());
        assertTrue(c.heldKeys() <= 300, "keys held " + c.heldKeys());
        CheckResult r = c.finish();
        assertTrue(r.serializable(), r::summary);
        assertEquals(n, r.committed());
        assertEquals(2L * n, r.reads());
        assertEquals(2L * n, r.edges(EdgeType.WR));
        assertEquals(n, r.edges(EdgeType.WW));
    }
    /** Hands over an empty chunk from every source of {@code c} (sources 0 .. n-1), then prunes. */
    private static void quietPass(IncrementalChecker c, int sources) {
        for (int s = 0; s < sources; s++) {
            c.add(s, new HistoryLog());
        }
        c.prune();
    }

    private static HistoryLog log(java.util.function.Consumer<HistoryLog> records) {
        HistoryLog l = new HistoryLog();
        records.accept(l);
        return l;
    }

    @Test
    void readLoggedAfterTheCoordinatorsAbortDoesNotPinTheHistory() {
        // A coordinator (source 0) aborts A while A's read is in flight to data server 1 (e.g. a partial restart's
        // force-abort of a transaction waiting for a lock): A is complete and dropped before ds1 logs the read,
        // then ds1 logs its own abort of A in the same chunk. A must not come back as a transaction without an
        // outcome that holds every later writer of X (ReconfigurationSimTest seed 81).
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(0, log(l -> l.outcome(A, false, "Move")));
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        c.add(1, log(l -> {
            l.read(A, X, T0, 1);
            l.outcome(A, false, "Move");
            l.write(B, X, 1);
            l.finalVersion(X, B, 1);
        }));
        c.add(0, log(l -> l.outcome(B, true, "Move")));
        quietPass(c, 2);
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        CheckResult r = c.finish();
        assertTrue(r.serializable(), r::summary);
        assertEquals(0, r.unfinished(), r::summary);
        assertEquals(1, r.aborted(), r::summary);
        assertEquals(1, r.committed(), r::summary);
    }

    @Test
    void lateReadWhoseAbortArrivesInALaterChunkIsDropped() {
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(0, log(l -> l.outcome(A, false, "Move")));
        quietPass(c, 2);
        c.add(1, log(l -> l.read(A, X, T0, 1)));
        c.prune();
        assertTrue(c.describeHeld().contains("unknown 0 ") && c.describeHeld().contains("aborted 1"), c::describeHeld);
        c.add(1, log(l -> l.outcome(A, false, "Move")));
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        assertEquals(1, c.finish().aborted());
    }

    @Test
    void lateWriteOfADroppedAbortIsStillAnAbortedRead() {
        // ds1 installs A's write after the coordinator's abort made A complete and dropped; B reads that version
        // before ds1 removes it, and (a broken server) commits: G1a, as in the batch check.
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(0, log(l -> l.outcome(A, false, "W")));
        quietPass(c, 2);
        c.add(1, log(l -> {
            l.write(A, X, 1);
            l.read(B, X, A, 1);
        }));
        c.prune();
        c.add(1, log(l -> l.outcome(A, false, "W")));
        c.add(0, log(l -> l.outcome(B, true, "R")));
        quietPass(c, 2);
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        CheckResult r = c.finish();
        assertEquals(1, r.violationCount(ViolationType.ABORTED_READ), r::summary);
        assertEquals(0, r.unfinished(), r::summary);
    }

    @Test
    void lateWriteAndItsAbortInOneChunkAreDropped() {
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(0, log(l -> l.outcome(A, false, "W")));
        quietPass(c, 2);
        c.add(1, log(l -> {
            l.write(A, X, 1);
            l.outcome(A, false, "W");
        }));
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        CheckResult r = c.finish();
        assertTrue(r.serializable(), r::summary);
        assertEquals(1, r.aborted(), r::summary);
    }

    @Test
    void readLoggedLongAfterTheDropEndsWithTheDataServersAbort() {
        // Past the passes dropped ids are remembered, the late read first makes a transaction without an outcome;
        // the data server's own abort record (it logs one for every transaction that read or wrote there) ends it.
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(0, log(l -> l.outcome(A, false, "Move")));
        for (int i = 0; i <= 2 * IncrementalChecker.DROPPED_KEPT_PASSES; i++) {
            quietPass(c, 2);
        }
        c.add(1, log(l -> l.read(A, X, T0, 1)));
        c.prune();
        assertTrue(c.describeHeld().contains("unknown 1"), c::describeHeld);
        c.add(1, log(l -> l.outcome(A, false, "Move")));
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        assertEquals(0, c.finish().unfinished());
    }

    @Test
    void aWriteLoggedAgainAfterItsCommittedWriterWasDroppedIsACopy() {
        // A coordinator (source 0) serving a read from its cache logs the version's write again before the read
        // (Sundial; burn seed 41 with --streamed): A committed and was dropped long before, so the copy must not
        // bring A back as a transaction without an outcome.
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(1, log(l -> l.write(A, X, 1)));
        c.add(0, log(l -> l.outcome(A, true, "W")));
        c.add(1, log(l -> l.finalVersion(X, A, 1)));
        quietPass(c, 2);
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        c.add(0, log(l -> {
            l.copy(A, X, 1);
            l.read(B, X, A, 1);
            l.outcome(B, true, "R");
        }));
        quietPass(c, 2);
        quietPass(c, 2);
        assertEquals(0, c.heldWithoutOutcome(), c::describeHeld);
        assertEquals(0, c.held(), c::describeHeld);
        CheckResult r = c.finish();
        assertTrue(r.serializable(), r::summary);
        assertEquals(0, r.unfinished(), r::summary);
        assertEquals(2, r.committed(), r::summary);
    }

    /** A committed A wrote X, final; then every pass runs until the id and X's state are long forgotten. */
    private static IncrementalChecker droppedLongAgo() {
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(1, log(l -> l.write(A, X, 1)));
        c.add(0, log(l -> l.outcome(A, true, "W")));
        c.add(1, log(l -> l.finalVersion(X, A, 1)));
        for (int i = 0; i <= 2 * IncrementalChecker.DROPPED_KEPT_PASSES; i++) {
            quietPass(c, 2);
        }
        assertEquals(0, c.held(), c::describeHeld);
        assertEquals(0, c.heldKeys(), c::describeHeld);
        return c;
    }

    @Test
    void aCopyOfAWriterDroppedLongAgoIsSettledOnceEverySourceHandedOverAfterIt() {
        // burn seed 122 (streamed): after an online update from tictoc to sundial with the hybrid cache, the
        // coordinator (source 0) served versions of TicToc writers dropped long before, whose id was forgotten and
        // whose key's state had gone; each copy made its writer a transaction without an outcome, held for ever
        IncrementalChecker c = droppedLongAgo();
        c.add(0, log(l -> {
            l.copy(A, X, 1);
            l.read(B, X, A, 1);
            l.outcome(B, true, "R");
        }));
        c.prune();
        assertEquals(1, c.heldWithoutOutcome(), c::describeHeld); // not known yet: the write may still be coming
        quietPass(c, 2);
        quietPass(c, 2);
        assertEquals(0, c.heldWithoutOutcome(), c::describeHeld);
        assertEquals(0, c.held(), c::describeHeld);
        // the next version of X: B read A's, so B comes before it (rw), as the batch check finds
        c.add(1, log(l -> {
            l.read(C, X, A, 1);
            l.write(C, X, 1);
        }));
        c.add(0, log(l -> l.outcome(C, true, "W")));
        c.add(1, log(l -> l.finalVersion(X, C, 1)));
        quietPass(c, 2);
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        CheckResult r = c.finish();
        assertTrue(r.serializable(), r::summary);
        assertEquals(0, r.unfinished(), r::summary);
        assertEquals(3, r.committed(), r::summary);
        assertEquals(2, r.edges(EdgeType.WR), r::summary);
    }

    @Test
    void aDataServersReadOfAnotherKeyOfAWriterKnownOnlyFromACopyIsARead() {
        // burn seed 1145 (streamed, sundial with the cache always reused): the coordinator's copy of A's write to X
        // made A a writer known only from copies; the data server's read of A's Y, long final, then found A held
        // with no write to Y and reported a record problem the batch check does not have
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(1, log(l -> {
            l.write(A, X, 1);
            l.write(A, Y, 1);
        }));
        c.add(0, log(l -> l.outcome(A, true, "W")));
        c.add(1, log(l -> {
            l.finalVersion(X, A, 1);
            l.finalVersion(Y, A, 1);
        }));
        for (int i = 0; i <= 2 * IncrementalChecker.DROPPED_KEPT_PASSES; i++) {
            quietPass(c, 2);
        }
        c.add(0, log(l -> {
            l.copy(A, X, 1);
            l.read(B, X, A, 1);
        }));
        c.add(1, log(l -> l.read(B, Y, A, 1)));
        c.add(0, log(l -> l.outcome(B, true, "R")));
        quietPass(c, 2);
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        CheckResult r = c.finish();
        assertTrue(r.serializable(), r::summary);
        assertEquals(2, r.committed(), r::summary);
        assertEquals(2, r.edges(EdgeType.WR), r::summary);
    }

    @Test
    void aCopyAheadOfTheDataServersWriteIsTheWriterItself() {
        // the coordinator's chunk with the copy and the read reaches the check before the data server's with the
        // write: the writer is the one the data server then records, with the wr edge to the reader
        IncrementalChecker c = new IncrementalChecker(2, 10);
        c.add(0, log(l -> {
            l.outcome(A, true, "W");
            l.copy(A, X, 1);
            l.read(B, X, A, 1);
            l.outcome(B, true, "R");
        }));
        c.add(1, log(l -> {
            l.write(A, X, 1);
            l.finalVersion(X, A, 1);
        }));
        quietPass(c, 2);
        quietPass(c, 2);
        assertEquals(0, c.held(), c::describeHeld);
        CheckResult r = c.finish();
        assertTrue(r.serializable(), r::summary);
        assertEquals(2, r.committed(), r::summary);
        assertEquals(1, r.edges(EdgeType.WR), r::summary);
        assertEquals(0, r.unfinished(), r::summary);
    }

    @Test
    void aFinalVersionSettlesTheCopiesOfItsKeyFirst() {
        // the data server reports C's version of X final before every source handed over after the copy: A, known
        // only from the copy, is then the dropped writer of the version B read, so B gets its rw edge to C — with B's
        // read of C's Y, a G2 cycle (one rw edge) the batch check finds too (records made up for the checker, not a
        // CC's)
        IncrementalChecker c = droppedLongAgo();
        c.add(0, log(l -> {
            l.copy(A, X, 1);
            l.read(B, X, A, 1);
        }));
        c.add(1, log(l -> {
            l.read(C, X, A, 1);
            l.write(C, X, 1);
            l.write(C, Y, 1);
        }));
        c.add(0, log(l -> l.outcome(C, true, "W")));
        c.add(1, log(l -> {
            l.read(B, Y, C, 1);
            l.finalVersion(X, C, 1);
            l.finalVersion(Y, C, 1);
        }));
        c.add(0, log(l -> l.outcome(B, true, "R")));
        assertEquals(0, c.heldWithoutOutcome(), c::describeHeld);
        quietPass(c, 2);
        quietPass(c, 2);
        CheckResult r = c.finish();
        assertFalse(r.serializable(), r::summary);
        assertEquals(1, r.violationCount(ViolationType.ANTI_DEPENDENCY_CYCLE), r::summary);
        assertEquals(0, r.violationCount(ViolationType.INCONSISTENT_RECORD), r::summary);
        assertEquals(0, r.unfinished(), r::summary);
    }
}
