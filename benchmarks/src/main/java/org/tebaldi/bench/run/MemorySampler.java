package org.tebaldi.bench.run;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.storage.StorageStats;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * Samples, once a second during an embedded run, the versions the data servers hold (their running counts), their
 * keys, and the heap in use — to show that version garbage collection (dissertation §4.5.3) keeps versions per key
 * flat over a long run. The summary compares the smallest heap sample (a trough right after a collection, close to
 * the live data) of the first and the last tenth of the run. Writes {@code memory.csv}
 * ({@code second,versions,keys,versions_per_key,heap_used_mb,checker_held_txns,checker_unfinished_txns,
 * heap_after_gc_mb}; {@code checker_held_txns} and {@code checker_unfinished_txns} are the transactions the streamed
 * history check holds and those of them without an outcome yet — each pins what depends on it —, empty without
 * {@code verify}; {@code heap_after_gc_mb} is the heap in use right after the most recent collection — the live
 * data, without the garbage {@code heap_used_mb} samples at random points of the allocation cycle; compare it with
 * {@code keys} to tell the store's own growth from anything else); then the stores (docs/performance.md, "Rows off
 * the heap"): {@code hot_keys} (keys whose versions are Java objects), {@code offheap_mb} (the arenas' memory) and
 * {@code offheap_live_mb} (of it, current records), {@code disk_keys} and {@code disk_mb} (rows beyond
 * {@code storage.memory}, in the RocksDB disk tiers), {@code heap_per_key_b} (heap after GC / keys, bytes) and
 * {@code offheap_per_key_b} (live off-heap bytes / keys), {@code read_back} and {@code evicted} (chains built from
 * and moved to the base stores so far).
 */
final class MemorySampler implements AutoCloseable {
    /** The columns of {@code memory.csv}. */
    static final String HEADER = "second,versions,keys,versions_per_key,heap_used_mb,checker_held_txns,"
            + "checker_unfinished_txns,heap_after_gc_mb,hot_keys,offheap_mb,offheap_live_mb,disk_keys,disk_mb,"
            + "heap_per_key_b,offheap_per_key_b,read_back,evicted";

    private final Cluster cluster;
    private final org.tebaldi.core.history.HistoryStream stream;
    private final Thread thread;
    private final List<String> rows = new ArrayList<>();
    private volatile boolean closed;

    /** @param stream the streamed history check, or null */
    MemorySampler(Cluster cluster, org.tebaldi.core.history.HistoryStream stream) {
        this.cluster = cluster;
        this.stream = stream;
        long t0 = System.nanoTime();
        thread = new Thread(() -> {
            while (!closed) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                sample((System.nanoTime() - t0) / 1_000_000_000L);
            }
        }, "tebaldi-memory-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private synchronized void sample(long second) {
        long versions = 0;
        long keys = 0;
        for (DataServer d : cluster.dataServers()) {
            versions += d.versionCount();
            keys += d.store().keyCount();
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long afterGc = MemoryFigures.heapAfterGcBytes();
        StorageStats st = MemoryFigures.storage(cluster);
        rows.add(second + "," + versions + "," + keys + "," + String.format("%.4f", keys == 0 ? 0.0
                : (double) versions / keys) + "," + heap / (1 << 20) + "," + (stream == null ? "," : stream.held() + ","
                + stream.heldWithoutOutcome()) + "," + afterGc / (1 << 20) + "," + st.hotKeys() + ","
                + st.offHeapBytes() / (1 << 20) + "," + st.liveBytes() / (1 << 20) + "," + st.diskKeys() + ","
                + st.diskBytes() / (1 << 20) + "," + (keys == 0 ? 0 : afterGc / keys) + ","
                + (keys == 0 ? 0 : st.liveBytes() / keys) + "," + st.readBack() + "," + st.evicted());
    }

    /** The first and last sample, for a one-line report. */
    synchronized String summary() {
        if (rows.isEmpty()) {
            return "no memory samples";
        }
        String[] a = rows.get(0).split(",");
        String[] b = rows.get(rows.size() - 1).split(",");
        int tenth = Math.max(1, rows.size() / 10);
        return "versions per key " + a[3] + " -> " + b[3] + " (" + b[1] + " versions, " + b[2] + " keys); heap troughs "
                + minHeap(0, tenth) + " -> " + minHeap(rows.size() - tenth, rows.size()) + " MB; heap after GC "
                + a[7] + " -> " + b[7] + " MB (" + a[13] + " -> " + b[13] + " B per key); off-heap " + a[9] + " -> "
                + b[9] + " MB, on disk " + b[12] + " MB (memory.csv)";
    }

    private long minHeap(int from, int to) {
        long m = Long.MAX_VALUE;
        for (int i = from; i < to; i++) {
            m = Math.min(m, Long.parseLong(rows.get(i).split(",")[4]));
        }
        return m;
    }

    /** Writes {@code memory.csv} into {@code dir}. */
    synchronized void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> out = new ArrayList<>();
        out.add(HEADER);
        out.addAll(rows);
        Files.write(dir.resolve("memory.csv"), out);
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
