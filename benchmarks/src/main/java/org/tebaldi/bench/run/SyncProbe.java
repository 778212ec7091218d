package org.tebaldi.bench.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.server.durability.LogRecord;
import org.tebaldi.server.durability.RocksLogStore;

/**
 * Measures what a sync costs on this machine's disk, for the simulated store's {@code syncMicros}
 * (docs/simulation.md, "Durability"; {@code scripts/tebaldi calibrate-durability}): in a fresh {@link RocksLogStore}
 * under {@code dir}, {@code n} rounds of one small write without a sync and one with ({@link LogRecord.Persisted}
 * records, as the data servers' epoch closes write), each waited for; and, as a reference, {@code n} appends of 4 KiB
 * to a plain file each followed by {@link FileChannel#force} (an fsync). Reports medians and 90th percentiles, µs.
 *
 * @param rocksUnsyncedMicros median latency of an unsynced RocksDB write, µs
 * @param rocksSyncedMicros   median latency of a synced RocksDB write, µs
 * @param rocksSyncedP90      90th percentile of the synced writes, µs
 * @param fsyncMicros         median latency of a 4 KiB append + fsync of a plain file, µs
 * @param fsyncP90            its 90th percentile, µs
 * @param rounds              rounds of each
 */
public record SyncProbe(double rocksUnsyncedMicros, double rocksSyncedMicros, double rocksSyncedP90,
                        double fsyncMicros, double fsyncP90, int rounds) {
    /** The extra time of a synced store write over an unsynced one, µs (≥ 0). */
    public double syncMicros() {
        return Math.max(0, rocksSyncedMicros - rocksUnsyncedMicros);
    }

    /**
     * Runs the measurement in {@code dir} (created; left for the caller to delete).
     *
     * @throws IOException if the plain file cannot be written
     * @throws InterruptedException if interrupted while waiting for a write
     */
    public static SyncProbe measure(Path dir, Catalog catalog, int n) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        long[] unsynced = new long[n];
        long[] synced = new long[n];
        RocksLogStore store = new RocksLogStore(dir.resolve("rocksdb"), catalog, Runnable::run);
        try {
            for (int i = 0; i < n; i++) {
                unsynced[i] = write(store, i, false);
                synced[i] = write(store, i, true);
            }
        } finally {
            store.close();
        }
        long[] fsync = new long[n];
        try (FileChannel f = FileChannel.open(dir.resolve("fsync.bin"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.allocate(4096);
            for (int i = 0; i < n; i++) {
                b.clear();
                long t0 = System.nanoTime();
                while (b.hasRemaining()) {
                    f.write(b);
                }
                f.force(false);
                fsync[i] = System.nanoTime() - t0;
            }
        }
        return new SyncProbe(quantile(unsynced, 0.5), quantile(synced, 0.5), quantile(synced, 0.9),
                quantile(fsync, 0.5), quantile(fsync, 0.9), n);
    }

    private static long write(RocksLogStore store, int i, boolean sync) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        long t0 = System.nanoTime();
        store.write(List.of(new LogRecord.Persisted(i + 1)), sync, done::countDown);
        done.await();
        return System.nanoTime() - t0;
    }

    private static double quantile(long[] ns, double q) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.floor(q * s.length))] / 1000.0;
    }
}
