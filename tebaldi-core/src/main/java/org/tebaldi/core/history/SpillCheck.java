package org.tebaldi.core.history;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * Checks a {@link HistorySpill} with bounded memory (docs/architecture.md, "Verification"): reads its segments in
 * order and feeds every chunk to an {@link IncrementalChecker}, pruning at every pass frame — the same calls, in the
 * same order, as {@link HistoryStream}'s streamed check made while the run went on, so the verdict is the same.
 * Either after the run (every segment is there; verification mode {@code after}) or following a spill that is
 * still being written ({@link #follow}: waits for each next segment; mode {@code process}). Not thread-safe.
 */
public final class SpillCheck {
    /**
     * What the check found.
     *
     * @param verdict       the checker's verdict over the whole history
     * @param maxHeld       most transactions the checker held at once
     * @param heldBeforeEnd what it held, by state, before the end ({@link IncrementalChecker#describeHeld()})
     * @param chunks        chunks read
     * @param bytes         bytes read
     * @param segments      segments read
     * @param millis        wall time of the check, ms
     */
    public record Result(CheckResult verdict, int maxHeld, String heldBeforeEnd, long chunks, long bytes,
                         int segments, long millis) {
    }

    /** Told after each segment: segments and bytes read so far, transactions held now. */
    @FunctionalInterface
    public interface Progress {
        void segmentRead(int segments, long bytes, int held);
    }

    private final Path dir;
    private final int sources;
    private BooleanSupplier writerAlive;
    private long pollMillis;
    private boolean deleteChecked;
    private Progress progress = (s, b, h) -> { };

    /**
     * @param dir     the spill's directory
     * @param sources the nodes that handed over ({@link HistorySpill#sources()})
     */
    public SpillCheck(Path dir, int sources) {
        this.dir = dir;
        this.sources = sources;
    }

    /**
     * A check of the spill in {@code dir}, the number of sources read from its manifest.
     *
     * @throws IOException if {@code dir} holds no readable manifest of a spill of this format
     */
    public static SpillCheck of(Path dir) throws IOException {
        java.util.Properties m = new java.util.Properties();
        Path f = dir.resolve(HistorySpill.MANIFEST);
        if (!Files.isRegularFile(f)) {
            throw new IOException(dir + " holds no history spill (no " + HistorySpill.MANIFEST + ")");
        }
        try (java.io.InputStream in = Files.newInputStream(f)) {
            m.load(in);
        }
        try {
            int format = Integer.parseInt(m.getProperty("format", ""));
            int sources = Integer.parseInt(m.getProperty("sources", ""));
            if (format != HistorySpill.VERSION || sources < 1 || sources > IncrementalChecker.MAX_SOURCES) {
                throw new IOException(f + ": format " + format + " with " + sources + " sources is not readable here "
                        + "(format " + HistorySpill.VERSION + ", 1.." + IncrementalChecker.MAX_SOURCES + " sources)");
            }
            return new SpillCheck(dir, sources);
        } catch (NumberFormatException e) {
            throw new IOException(f + " is damaged: " + e.getMessage(), e);
        }
    }

    /**
     * Follows a spill still being written: a segment not there yet is waited for (polled every {@code pollMillis}
     * ms) while {@code writerAlive} says the writer may still write it.
     */
    public SpillCheck follow(BooleanSupplier writerAlive, long pollMillis) {
        this.writerAlive = writerAlive;
        this.pollMillis = Math.max(1, pollMillis);
        return this;
    }

    /** Deletes each segment once it was read (a long run then keeps little on disk). */
    public SpillCheck deleteChecked() {
        this.deleteChecked = true;
        return this;
    }

    /** Tells {@code p} after every segment. */
    public SpillCheck onProgress(Progress p) {
        this.progress = p;
        return this;
    }

    /**
     * Reads the spill up to its end frame and returns the verdict.
     *
     * @throws IOException if a segment cannot be read, is damaged, or the spill ends without its end frame (the
     *                     writer failed or stopped early)
     * @throws InterruptedException if interrupted while waiting for a segment
     */
    public Result run() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        IncrementalChecker checker = new IncrementalChecker(sources, SerializabilityChecker.DEFAULT_MAX_STORED_PER_TYPE);
        long chunks = 0;
        long bytes = 0;
        for (int n = 0; ; n++) {
            Path seg = await(n);
            String heldBeforeEnd = null;
            try (java.io.InputStream file = Files.newInputStream(seg)) {
                DataInputStream header = new DataInputStream(file);
                if (header.readInt() != HistorySpill.MAGIC || header.readInt() != HistorySpill.VERSION) {
                    throw new IOException(seg + " is not a history spill segment of format " + HistorySpill.VERSION);
                }
                DataInputStream in = new DataInputStream(new BufferedInputStream(
                        new com.github.luben.zstd.ZstdInputStream(file), 1 << 16));
                while (true) {
                    int kind;
                    try {
                        kind = in.readByte();
                    } catch (EOFException e) {
                        break;
                    }
                    if (kind == HistorySpill.CHUNK) {
                        int source = in.readInt();
                        checker.add(source, HistoryLog.readFrom(in));
                        chunks++;
                    } else if (kind == HistorySpill.PASS) {
                        checker.prune();
                    } else if (kind == HistorySpill.END) {
                        heldBeforeEnd = checker.describeHeld();
                        checker.prune();
                        break;
                    } else {
                        throw new IOException(seg + ": unknown frame kind " + kind);
                    }
                }
            } catch (EOFException e) {
                throw new IOException(seg + " ends inside a frame (a damaged spill)", e);
            }
            bytes += Files.size(seg);
            if (deleteChecked) {
                Files.delete(seg);
            }
            progress.segmentRead(n + 1, bytes, checker.held());
            if (heldBeforeEnd != null) {
                int maxHeld = checker.maxHeld();
                return new Result(checker.finish(), maxHeld, heldBeforeEnd, chunks, bytes, n + 1,
                        (System.nanoTime() - t0) / 1_000_000);
            }
        }
    }

    private Path await(int n) throws IOException, InterruptedException {
        Path seg = HistorySpill.segmentFile(dir, n);
        while (!Files.exists(seg)) {
            if (writerAlive == null) {
                throw new IOException("the history spill in " + dir + " ends before its end frame (segment " + n
                        + " is missing): the run stopped before the history was complete");
            }
            if (!writerAlive.getAsBoolean()) {
                if (Files.exists(seg)) {
                    break;
                }
                throw new IOException("the run writing the history spill in " + dir + " stopped before segment "
                        + n + " and the end frame");
            }
            Thread.sleep(pollMillis);
        }
        return seg;
    }
}
