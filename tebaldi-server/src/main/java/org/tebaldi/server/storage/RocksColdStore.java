package org.tebaldi.server.storage;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.tebaldi.core.storage.ColdStore;

/**
 * The disk tier of a data server's base store (docs/performance.md, "A bounded footprint"): a RocksDB database of
 * its own in a fresh directory, written without a write-ahead log (it is a cache of the server's rows, not durable
 * state: emptied on recovery, deleted on close), a 16 MiB block cache and a 16 MiB write buffer, LZ4-compressed,
 * leveled compaction (RocksDB's default; docs/performance.md, "Long runs", says what it costs in an hour).
 * A lookup of a key that was never spilled — every insert of a new row looks its key up first — is answered by
 * Bloom filters on the heap over the keys written here ({@link SpilledKeys}) without a call into RocksDB; the
 * others pass RocksDB's filters (one per memtable, one per table file, 10 bits per key). If the store is dropped
 * without {@link #close}, a {@link Cleaner} closes the database and deletes the directory once the store is
 * unreachable.
 */
public final class RocksColdStore implements ColdStore {
    private static final Cleaner CLEANER = Cleaner.create();

    static {
        RocksDB.loadLibrary();
    }

    /** What must be released: held apart from the store so the cleaner does not keep the store reachable. */
    private static final class Native implements Runnable {
        final Path dir;
        Options options;
        LRUCache cache;
        BloomFilter filter;
        WriteOptions noWal;
        volatile RocksDB db;

        Native(Path dir) {
            this.dir = dir;
        }

        void open() {
            cache = new LRUCache(16L << 20);
            filter = new BloomFilter(10);
            options = new Options().setCreateIfMissing(true).setWriteBufferSize(16L << 20)
                    .setMaxWriteBufferNumber(2).setMaxBackgroundJobs(1)
                    .setCompressionType(CompressionType.LZ4_COMPRESSION)
                    .setMemtablePrefixBloomSizeRatio(0.1).setMemtableWholeKeyFiltering(true)
                    .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache)
                            .setFilterPolicy(filter));
            noWal = new WriteOptions().setDisableWAL(true);
            try {
                Files.createDirectories(dir);
                db = RocksDB.open(options, dir.toString());
            } catch (RocksDBException | IOException e) {
                throw new IllegalStateException("cannot open the disk tier of the store in " + dir + ": "
                        + e.getMessage(), e);
            }
        }

        @Override
        public synchronized void run() {
            RocksDB d = db;
            db = null;
            if (d != null) {
                d.close();
                noWal.close();
                options.close();
                cache.close();
                filter.close();
            }
            deleteTree(dir);
        }
    }

    private final Native n;
    private final Cleaner.Cleanable cleanable;
    private final SpilledKeys spilled = new SpilledKeys();

    private RocksColdStore(Path dir) {
        this.n = new Native(dir);
        n.open();
        this.cleanable = CLEANER.register(this, n);
    }

    /**
     * Opens a new, empty disk tier in a fresh directory under {@code parent} (created if missing).
     *
     * @param name the directory's prefix, e.g. {@code ds0}
     * @throws IllegalStateException if the directory or the database cannot be created
     */
    public static RocksColdStore open(Path parent, String name) {
        try {
            Files.createDirectories(parent);
            return new RocksColdStore(Files.createTempDirectory(parent, name + "-"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a directory for the store's disk tier under " + parent
                    + ": " + e.getMessage(), e);
        }
    }

    private RocksDB db() {
        RocksDB d = n.db;
        if (d == null) {
            throw new IllegalStateException("the store's disk tier in " + n.dir + " is closed");
        }
        return d;
    }

    @Override
    public void putAll(byte[][] keys, byte[][] values, int count) {
        try (WriteBatch b = new WriteBatch()) {
            for (int i = 0; i < count; i++) {
                b.put(keys[i], values[i]);
                spilled.add(keys[i]);
            }
            db().write(n.noWal, b);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot write to the store's disk tier in " + n.dir + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        if (!spilled.mayHold(key)) {
            return null; // never written here: no call into RocksDB
        }
        try {
            return db().get(key);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read the store's disk tier in " + n.dir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void delete(byte[] key) {
        try {
            db().delete(n.noWal, key);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot write to the store's disk tier in " + n.dir + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void forEach(BiConsumer<byte[], byte[]> visitor) {
        try (RocksIterator it = db().newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                visitor.accept(it.key(), it.value());
            }
        }
    }

    @Override
    public void clear() {
        synchronized (n) {
            n.run();
            n.open();
        }
        spilled.clear();
    }

    @Override
    public long diskBytes() {
        synchronized (n) {
            RocksDB d = n.db;
            if (d == null) {
                return 0;
            }
            try {
                return d.getLongProperty("rocksdb.total-sst-files-size")
                        + d.getLongProperty("rocksdb.cur-size-all-mem-tables");
            } catch (RocksDBException e) {
                return 0;
            }
        }
    }

    @Override
    public void close() {
        cleanable.clean();
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover directory of a cache; nothing depends on it
        }
    }
}
