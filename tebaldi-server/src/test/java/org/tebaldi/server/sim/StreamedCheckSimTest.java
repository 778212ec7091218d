package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.EdgeType;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.history.ViolationType;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * The streamed, bounded-memory history check on simulated clusters (docs/architecture.md, "Verification"): the
 * nodes hand their records over every 2 ms of virtual time while bank transfers run under locking, snapshot,
 * timestamp and mixed trees, and Sundial with the coordinators' caches (reads served at a coordinator, recorded
 * there with a copy of the version's write; its GC confirmation asks every coordinator, docs/mechanisms.md "TicToc
 * and Sundial" — before it, a data server never confirmed, no version became final and the check held every
 * transaction); the verdict and counts are those of the batch checker on the same records (kept by a listener), and
 * the check holds a small fraction of the run's transactions after each pass.
 */
class StreamedCheckSimTest {
    static Stream<Arguments> trees() {
        return Stream.of(Arguments.of(TreeSpec.leaf("2pl", "transfer", "audit")),
                Arguments.of(TreeSpec.leaf("ssi", "transfer", "audit")),
                Arguments.of(TreeSpec.leaf("tso", "transfer", "audit")),
                Arguments.of(TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "transfer"), TreeSpec.leaf("none", "audit"))),
                Arguments.of(TreeSpec.leaf("sundial", "transfer", "audit").option("cache", "hybrid")),
                Arguments.of(TreeSpec.leaf("sundial", "transfer", "audit").option("cache", "always-reuse")));
    }

    /** Every chunk's records in one log, each key's final versions in one version order. */
    private static final class Collected {
        final HistoryLog all = new HistoryLog();
        final Map<Key, List<Long>> orders = new LinkedHashMap<>();

        void add(HistoryLog chunk) {
            chunk.outcomes().forEach(o -> all.outcome(o.txn(), o.committed(), o.type()));
            chunk.writes().forEach(w -> all.write(w.writer(), w.key(), w.writeSeq()));
            chunk.copies().forEach(w -> all.copy(w.writer(), w.key(), w.writeSeq()));
            chunk.reads().forEach(r -> all.read(r.reader(), r.key(), r.writer(), r.writeSeq()));
            chunk.finals().forEach(f -> {
                List<Long> o = orders.computeIfAbsent(f.key(), k -> new ArrayList<>(List.of(0L)));
                if (f.writer() != 0L) {
                    o.add(f.writer());
                }
            });
        }

        CheckResult batch() {
            orders.forEach((k, o) -> all.versionOrder(k, o.stream().mapToLong(Long::longValue).toArray()));
            return SerializabilityChecker.check(History.merge(List.of(all)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void streamedCheckGivesTheBatchVerdictAndHoldsFewTransactions(TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "stream");
        SimHarness h = new SimHarness(new BankWorkload(24), tree).clients(6, 300);
        CheckResult streamed = streamedMatchesBatch(h);
        System.out.printf("%s: %d committed, at most %d held after a pass%n", tree.describe(), streamed.committed(),
                h.maxHeldAfterPass());
        assertTrue(h.maxHeldAfterPass() * 10 < streamed.committed(),
                "held " + h.maxHeldAfterPass() + " of " + streamed.committed());
    }

    /**
     * Without GC epochs no collected epoch reports a write final, so the data servers look at every written key
     * at each hand-over and at the end ({@code DsHistory}): the verdict and counts are still the batch checker's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void withoutGcEpochsEveryWrittenKeyIsStillReportedFinal(TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "stream-nogc");
        CheckResult streamed = streamedMatchesBatch(new SimHarness(new BankWorkload(24), tree).clients(6, 100)
                .gcEpoch(0));
        assertTrue(streamed.committed() > 0, streamed.summary());
    }

    private static CheckResult streamedMatchesBatch(SimHarness harness) {
        Collected collected = new Collected();
        SimHarness h = harness.streamHistory(2_000).onStream(s -> s.listen((source, chunk) -> collected.add(chunk)));
        SimHarness.Stats stats = new SimHarness.Stats();
        h.run(5, stats);
        CheckResult streamed = h.streamed();
        CheckResult batch = collected.batch();
        String both = "batch: " + batch.summary() + "\nstreamed: " + streamed.summary();
        assertTrue(batch.serializable(), both);
        assertTrue(streamed.serializable(), both);
        for (ViolationType t : ViolationType.values()) {
            assertEquals(batch.violationCount(t), streamed.violationCount(t), both);
        }
        assertEquals(batch.committed(), streamed.committed(), both);
        assertEquals(batch.aborted(), streamed.aborted(), both);
        assertEquals(batch.reads(), streamed.reads(), both);
        assertEquals(batch.edges(EdgeType.WW), streamed.edges(EdgeType.WW), both);
        assertEquals(batch.edges(EdgeType.WR), streamed.edges(EdgeType.WR), both);
        assertTrue(streamed.committed() >= stats.committed, both);
        return streamed;
    }
}
