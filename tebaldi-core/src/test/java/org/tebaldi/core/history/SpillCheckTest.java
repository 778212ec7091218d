package org.tebaldi.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.model.Key;

/**
 * The spilled history ({@link HistorySpill}, {@link SpillCheck}): a log survives the spill format unchanged; the
 * check of a spill gives the batch check's verdict and counts on the anomaly histories and on random histories
 * (fed in the chunks and passes the streamed check saw); it follows a spill while it is written, over many
 * segments, and deletes what it read on request; an incomplete or damaged spill is an error, not a verdict.
 */
class SpillCheckTest {
    @TempDir
    Path tmp;

    @Test
    void aLogSurvivesTheSpillFormat() throws IOException {
        HistoryLog l = new HistoryLog();
        Key packed = Key.of(3, 7, 9);
        Key wide = Key.of(4, Long.MAX_VALUE, Long.MIN_VALUE, 5, 6, 7, 8);
        l.read(11, packed, 0, 1);
        l.read(12, wide, 11, 2);
        l.write(11, packed, 1);
        l.write(12, wide, 1);
        l.write(12, wide, 2);
        l.copy(4, packed, 1);
        l.pruned(packed, 4);
        l.finalVersion(wide, 12, 2);
        l.outcome(11, true, "new_order");
        l.outcome(12, false, null);
        l.versionOrder(packed, new long[] {0, 4, 11});
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        l.writeTo(new DataOutputStream(b));
        HistoryLog r = HistoryLog.readFrom(new DataInputStream(new ByteArrayInputStream(b.toByteArray())));
        assertEquals(List.copyOf(l.reads()), List.copyOf(r.reads()));
        assertEquals(List.copyOf(l.writes()), List.copyOf(r.writes()));
        assertEquals(List.of(new HistoryLog.Write(4, packed, 1)), List.copyOf(r.copies()));
        assertEquals(List.copyOf(l.finals()), List.copyOf(r.finals()));
        assertEquals(l.outcomes(), r.outcomes());
        assertEquals(List.of(0L, 4L, 11L), boxed(r.versionOrders().get(packed)));
        assertEquals(List.of(4L), boxed(r.prunedOrders().get(packed)));
    }

    private static List<Long> boxed(long[] a) {
        return java.util.Arrays.stream(a).boxed().toList();
    }

    @Test
    void theSpillOfTheAnomalyHistoriesGivesTheBatchVerdict() throws Exception {
        int n = 0;
        for (var e : IncrementalCheckerTest.fixtures().entrySet()) {
            CheckResult batch = SerializabilityChecker.check(History.merge(IncrementalCheckerTest.logs(e.getValue().get())));
            for (long seed = 0; seed < 5; seed++) {
                History h = History.merge(IncrementalCheckerTest.logs(e.getValue().get()));
                CheckResult spilled = spillAndCheck(h, seed, 1 + (int) (seed % 3), 0.3, 0.3, n++);
                IncrementalCheckerTest.assertSame(batch, spilled, e.getKey() + ", seed " + seed);
            }
        }
    }

    @Test
    void theSpillOfRandomHistoriesGivesTheStreamedVerdict() throws Exception {
        int unserializable = 0;
        for (long seed = 0; seed < 60; seed++) {
            List<HistoryLog> logs = RandomHistories.generate(seed, 60 + (int) (seed % 7) * 20, 6 + (int) (seed % 5));
            CheckResult batch = SerializabilityChecker.check(History.merge(logs));
            int ds = 1 + (int) (seed % 3);
            double handOver = 0.05 + (seed % 4) * 0.1;
            double prune = 0.1 + (seed % 3) * 0.2;
            CheckResult streamed = new StreamFeed(History.merge(logs), seed, ds, handOver, prune).run();
            CheckResult spilled = spillAndCheck(History.merge(logs), seed, ds, handOver, prune, (int) seed);
            IncrementalCheckerTest.assertSame(batch, spilled, "seed " + seed);
            assertEquals(streamed.summary().lines().skip(2).sorted().toList(),
                    spilled.summary().lines().skip(2).sorted().toList(), "the same violations, seed " + seed);
            unserializable += batch.serializable() ? 0 : 1;
        }
        assertTrue(unserializable > 15, "too few random histories with violations: " + unserializable);
    }

    /** Feeds {@code h} the way {@link StreamFeed} does, mirrored to a spill, and checks the spill. */
    private CheckResult spillAndCheck(History h, long seed, int dataServers, double handOver, double prune, int n)
            throws Exception {
        Path dir = tmp.resolve("spill-" + n);
        HistorySpill spill = new HistorySpill(dir, dataServers + 1, 0, 256);
        new StreamFeed(h, seed, dataServers, handOver, prune).mirror(spill).run();
        spill.finish();
        return SpillCheck.of(dir).run().verdict();
    }

    @Test
    void aFollowerChecksWhileTheSpillIsWrittenAndDeletesWhatItRead() throws Exception {
        List<HistoryLog> logs = RandomHistories.generate(7, 400, 12);
        CheckResult batch = SerializabilityChecker.check(History.merge(logs));
        Path dir = tmp.resolve("followed");
        HistorySpill spill = new HistorySpill(dir, 3, 0, 64);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<Object> result = new AtomicReference<>();
        int[] segmentsSeen = {0};
        Thread follower = new Thread(() -> {
            try {
                result.set(SpillCheck.of(dir).follow(writing::get, 5).deleteChecked()
                        .onProgress((s, b, h) -> segmentsSeen[0] = s).run());
            } catch (Exception e) {
                result.set(e);
            }
        });
        follower.start();
        new StreamFeed(History.merge(logs), 7, 2, 0.2, 0.2).mirror(spill).run();
        spill.finish();
        writing.set(false);
        follower.join(60_000);
        assertTrue(result.get() instanceof SpillCheck.Result, String.valueOf(result.get()));
        SpillCheck.Result r = (SpillCheck.Result) result.get();
        IncrementalCheckerTest.assertSame(batch, r.verdict(), "followed");
        assertTrue(r.segments() > 3, "small segments: " + r.segments());
        assertEquals(r.segments(), segmentsSeen[0]);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(HistorySpill.MANIFEST), files.map(p -> p.getFileName().toString()).toList(),
                    "every segment deleted once read");
        }
    }

    @Test
    void aSpillWithoutItsEndIsAnErrorNotAVerdict() throws Exception {
        Path dir = tmp.resolve("cut");
        HistorySpill spill = new HistorySpill(dir, 2, 0, 1 << 20);
        HistoryLog l = new HistoryLog();
        l.outcome(5, true, "t");
        spill.handOver(0, () -> l);
        spill.close(); // stopped without finish: no end frame, last segment never completed
        IOException e = assertThrows(IOException.class, () -> SpillCheck.of(dir).run());
        assertTrue(e.getMessage().contains("ends before its end frame"), e.getMessage());
        IOException followed = assertThrows(IOException.class, () -> SpillCheck.of(dir).follow(() -> false, 1).run());
        assertTrue(followed.getMessage().contains("stopped before segment 0"), followed.getMessage());
    }

    @Test
    void aDamagedSegmentIsAnError() throws Exception {
        Path dir = tmp.resolve("damaged");
        HistorySpill spill = new HistorySpill(dir, 1, 0, 1 << 20);
        for (int i = 0; i < 50; i++) {
            HistoryLog l = new HistoryLog();
            l.write(i + 1, Key.of(1, i), 1);
            l.outcome(i + 1, true, "t");
            spill.handOver(0, () -> l);
        }
        spill.finish();
        Path seg = HistorySpill.segmentFile(dir, 0);
        byte[] b = Files.readAllBytes(seg);
        Files.write(seg, java.util.Arrays.copyOf(b, b.length / 2));
        assertThrows(IOException.class, () -> SpillCheck.of(dir).run());
        assertThrows(IOException.class, () -> SpillCheck.of(tmp.resolve("nothing")));
    }

    @Test
    void aSecondSpillIntoTheSameDirectoryIsRefused() throws Exception {
        Path dir = tmp.resolve("twice");
        new HistorySpill(dir, 1, 0, 1 << 20).finish();
        IOException e = assertThrows(IOException.class, () -> new HistorySpill(dir, 1, 0, 1 << 20));
        assertTrue(e.getMessage().contains("already holds"), e.getMessage());
        assertFalse(SpillCheck.of(dir).run().verdict().violationCount() > 0);
    }
}
