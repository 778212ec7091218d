package org.tebaldi.core.history;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Writes the history the nodes hand over to disk instead of checking it in the run's JVM (docs/architecture.md,
 * "Verification"): the measured run pays for recording and for this copy, not for the check. A {@link SpillCheck}
 * reads it back — after the measured window (verification mode {@code after}) or in a checker process that
 * follows it while the run goes on ({@code process}) — and feeds exactly the chunks, in exactly the order and
 * with exactly the pruning passes, that {@link HistoryStream}'s streamed check would have seen.
 *
 * <p>Layout: a manifest ({@value #MANIFEST}: format version, sources) and numbered segments {@code history-000000.bin}, {@code history-000001.bin}, ... in one directory. A
 * segment is written as {@code .part} and renamed when complete (once its frames reach the segment size, or at
 * {@link #finish}), so a reader following the spill only ever opens whole segments. A segment starts
 * with {@link #MAGIC} and {@link #VERSION}, then holds Zstandard-compressed frames (zstd-jni): {@link #CHUNK} (source, then {@link HistoryLog#writeTo}), {@link #PASS} (the
 * streamed check's add-then-prune pass, every {@code passMillis}), and {@link #END} (last frame of the last
 * segment: every node handed over its last records).
 *
 * <p>Chunks are queued under this object's lock (so their order is the order of the swaps) and encoded by one
 * writer thread, "history-spill"; a node's thread only swaps its log. Thread-safe.
 */
public final class HistorySpill implements HistoryHandOver, AutoCloseable {
    /** First bytes of every segment: "TBHS", then the format version. */
    public static final int MAGIC = 0x54424853;
    /** Format version written after {@link #MAGIC} (2: chunks hold the copied writes, {@link HistoryLog#copy}). */
    public static final int VERSION = 2;
    /** Zstandard level of the frames (1: the fastest; a TPC-C run's spill shrinks about 9×). */
    static final int COMPRESSION_LEVEL = 1;
    /** Frame kinds. */
    public static final byte CHUNK = 1;
    /** A pruning pass of the streamed check. */
    public static final byte PASS = 2;
    /** The end of the history. */
    public static final byte END = 3;
    /** The manifest in the spill's directory: format and sources (a Java properties file). */
    public static final String MANIFEST = "spill.properties";
    /**
     * Segment size, in bytes before compression, after which the writer starts a new segment (a TPC-C run on 2
     * cores fills one in a few seconds; a following checker reads a segment once it is complete).
     */
    public static final long DEFAULT_SEGMENT_BYTES = 16L << 20;

    /** A queued frame: a chunk of {@code source}, or a pass ({@code log == null}, source -1). */
    private record Frame(int source, HistoryLog log) {
    }

    private final Path dir;
    private final int sources;
    private final long passNanos;
    private final long segmentBytes;
    private final Thread writer;
    private List<Frame> queue = new ArrayList<>();
    private boolean closing;
    /** Closed without {@link #finish}: no end frame, the last segment stays a {@code .part}. */
    private boolean abandoned;
    private volatile IOException failure;
    private int segment = -1;
    private CountingStream counted;
    private DataOutputStream out;
    private volatile long bytes;
    private volatile long chunks;

    /**
     * Starts the writer thread.
     *
     * @param dir          directory for the segments (created; must hold no segments yet)
     * @param sources      nodes that hand over, 1 .. {@link IncrementalChecker#MAX_SOURCES}
     * @param passMillis   the streamed check's pass period, ms (e.g. 250); 0: passes only by {@link #pass()}
     * @param segmentBytes segment size, bytes before compression (at least 1)
     * @throws IOException if the directory cannot be created or already holds a spill
     * @throws IllegalArgumentException for sources, passMillis or segmentBytes out of range
     */
    public HistorySpill(Path dir, int sources, long passMillis, long segmentBytes) throws IOException {
        if (sources < 1 || sources > IncrementalChecker.MAX_SOURCES || passMillis < 0 || segmentBytes < 1) {
            throw new IllegalArgumentException("need 1 <= sources <= " + IncrementalChecker.MAX_SOURCES
                    + ", passMillis >= 0 and segmentBytes >= 1: " + sources + ", " + passMillis + ", " + segmentBytes);
        }
        Files.createDirectories(dir);
        if (Files.exists(segmentFile(dir, 0)) || Files.exists(partFile(dir, 0))) {
            throw new IOException(dir + " already holds a history spill");
        }
        java.util.Properties manifest = new java.util.Properties();
        manifest.setProperty("format", Integer.toString(VERSION));
        manifest.setProperty("sources", Integer.toString(sources));
        try (OutputStream m = Files.newOutputStream(dir.resolve(MANIFEST))) {
            manifest.store(m, "history spill (docs/architecture.md, Verification)");
        }
        this.dir = dir;
        this.sources = sources;
        this.passNanos = passMillis * 1_000_000;
        this.segmentBytes = segmentBytes;
        this.writer = new Thread(this::write, "history-spill");
        writer.setDaemon(true);
        writer.setPriority(Thread.MIN_PRIORITY);
        writer.start();
    }

    /** The file of completed segment {@code n} in {@code dir}. */
    public static Path segmentFile(Path dir, int n) {
        return dir.resolve(String.format("history-%06d.bin", n));
    }

    static Path partFile(Path dir, int n) {
        return dir.resolve(String.format("history-%06d.bin.part", n));
    }

    /** The spill's directory. */
    public Path dir() {
        return dir;
    }

    /** Nodes that hand over. */
    public int sources() {
        return sources;
    }

    /** Bytes written so far (compressed, as on disk). */
    public long bytes() {
        return bytes;
    }

    /** Chunks written so far. */
    public long chunks() {
        return chunks;
    }

    @Override
    public void handOver(int source, Supplier<HistoryLog> swap) {
        if (source < 0 || source >= sources) {
            throw new IllegalArgumentException("source " + source + " not in 0.." + (sources - 1));
        }
        synchronized (this) {
            if (closing) {
                throw new IllegalStateException("the history spill in " + dir + " is closed");
            }
            HistoryLog log = swap.get();
            if (failure == null) { // after a failure the spill is incomplete anyway: hold nothing more
                queue.add(new Frame(source, log));
            }
        }
    }

    /**
     * Queues a pruning pass now, after every chunk handed over so far (e.g. a simulation's passes in virtual time).
     *
     * @throws IllegalStateException if the spill was closed
     */
    public void pass() {
        synchronized (this) {
            if (closing) {
                throw new IllegalStateException("the history spill in " + dir + " is closed");
            }
            queue.add(new Frame(-1, null));
            notifyAll();
        }
    }

    /**
     * Writes what is queued, the last pass and the end frame, completes the last segment and stops the writer.
     *
     * @throws IOException if writing failed at any point (the spill is then incomplete)
     * @throws InterruptedException if interrupted while waiting for the writer
     */
    public void finish() throws IOException, InterruptedException {
        synchronized (this) {
            closing = true;
            notifyAll();
        }
        writer.join();
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Stops the writer; if {@link #finish} did not run, without the end frame and leaving the last segment
     * incomplete (a reader reports the spill as cut short).
     */
    @Override
    public void close() {
        synchronized (this) {
            if (!closing) {
                abandoned = true;
            }
            closing = true;
            notifyAll();
        }
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void write() {
        long nextPass = passNanos == 0 ? Long.MAX_VALUE : System.nanoTime() + passNanos;
        try {
            open();
            while (true) {
                List<Frame> batch;
                boolean last;
                synchronized (this) {
                    long wait = passNanos == 0 ? 100_000_000 : nextPass - System.nanoTime();
                    while (!closing && wait > 0 && (passNanos > 0 || queue.isEmpty())) {
                        wait(Math.max(1, wait / 1_000_000));
                        wait = passNanos == 0 ? 0 : nextPass - System.nanoTime();
                    }
                    if (!closing && passNanos > 0) {
                        queue.add(new Frame(-1, null));
                        nextPass += passNanos;
                    }
                    batch = queue;
                    queue = new ArrayList<>();
                    last = closing;
                    if (abandoned) {
                        out.close();
                        return;
                    }
                }
                for (Frame f : batch) {
                    frame(f);
                }
                if (last) {
                    out.writeByte(PASS);
                    out.writeByte(END);
                    complete();
                    return;
                }
            }
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            failure = new IOException("the history spill was interrupted", e);
        } finally {
            if (out != null && failure != null) {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // already failed
                }
            }
        }
    }

    private void frame(Frame f) throws IOException {
        if (f.log == null) {
            out.writeByte(PASS);
        } else {
            out.writeByte(CHUNK);
            out.writeInt(f.source);
            f.log.writeTo(out);
            chunks++;
        }
        bytes = counted.total;
        if (out.size() >= segmentBytes) { // bytes before compression
            complete();
            open();
        }
    }

    private void open() throws IOException {
        segment++;
        counted = new CountingStream(Files.newOutputStream(partFile(dir, segment)), counted == null ? 0 : counted.total);
        DataOutputStream header = new DataOutputStream(counted);
        header.writeInt(MAGIC);
        header.writeInt(VERSION);
        out = new DataOutputStream(new BufferedOutputStream(new com.github.luben.zstd.ZstdOutputStream(counted,
                COMPRESSION_LEVEL), 1 << 16));
    }

    private void complete() throws IOException {
        out.close();
        bytes = counted.total;
        Files.move(partFile(dir, segment), segmentFile(dir, segment), StandardCopyOption.ATOMIC_MOVE);
    }

    /** Counts the bytes that reach the file. */
    private static final class CountingStream extends java.io.FilterOutputStream {
        long total;

        CountingStream(OutputStream out, long total) {
            super(out);
            this.total = total;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            total++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            total += len;
        }
    }
}
