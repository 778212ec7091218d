package org.tebaldi.server.durability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.model.Catalog;

/**
 * A {@link LogStore} on RocksDB (dissertation §4.5.4 uses RocksDB as the underlying storage): one database per data
 * server with the column families of {@link LogFormat}. One writer thread takes requests in order, encodes the
 * records and merges every write request waiting in its queue into one write batch (group commit: one write-ahead
 * log append, and one fsync when any of them asked for it), then hands the callbacks back to the data server.
 * Initial rows go to the data column family without the write-ahead log and are flushed before the next synced
 * write completes.
 */
public final class RocksLogStore implements LogStore {
    private static final Logger LOG = LoggerFactory.getLogger(RocksLogStore.class);
    private static final int DATA_CHUNK = 20_000;
    private static final byte[] LOG_END = new byte[16];

    static {
        RocksDB.loadLibrary();
        Arrays.fill(LOG_END, (byte) 0xFF);
    }

    private sealed interface Req {
    }

    private record Write(List<LogRecord> records, boolean sync, Runnable done) implements Req {
    }

    private record Load(List<? extends LogRecord> rows) implements Req {
    }

    private record Read(Consumer<List<LogRecord.Data>> chunk, Consumer<LogContents> done) implements Req {
    }

    private record Stop() implements Req {
    }

    private record Barrier(java.util.concurrent.CountDownLatch done) implements Req {
    }

    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory
            .getThreadMXBean();

    private final Path dir;
    private final LogFormat format;
    private volatile StoreProfile profile;
    private final Executor owner;
    private final RocksDB db;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions cfOptions;
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    private final Map<LogFormat.Cf, ColumnFamilyHandle> cfs = new EnumMap<>(LogFormat.Cf.class);
    private final WriteOptions async = new WriteOptions();
    private final WriteOptions synced = new WriteOptions().setSync(true);
    private final WriteOptions noWal = new WriteOptions().setDisableWAL(true);
    private final LinkedBlockingQueue<Req> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private final boolean hadData;
    private boolean loadsUnflushed;
    private volatile boolean closed;
    /** Why the writer stopped (null while it runs): later requests are dropped, {@link #awaitWritten} throws. */
    private volatile String failure;

    /** A factory opening {@code <dir>/ds<i>} for data server {@code i}. */
    public static Factory factory(DurabilityOptions opts) {
        return (ds, catalog, owner) -> new RocksLogStore(opts.dirOf(ds), catalog, owner);
    }

    /**
     * Opens (creating if needed) the database in {@code dir}.
     *
     * @throws IllegalStateException naming the directory if RocksDB cannot open it (e.g. another process has it)
     */
    public RocksLogStore(Path dir, Catalog catalog, Executor owner) {
        this.dir = dir;
        this.format = new LogFormat(catalog);
        this.owner = owner;
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create the store directory " + dir + ": " + e.getMessage(), e);
        }
        boolean existed = Files.exists(dir.resolve("CURRENT"));
        dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2).setKeepLogFileNum(2);
        // The store is written sequentially and read only by recovery: no background compaction competes with the
        // transactions for the CPU (recovery merges the level-0 files once, and folds the log into the data).
        cfOptions = new ColumnFamilyOptions().setWriteBufferSize(64L << 20)
                .setCompressionType(org.rocksdb.CompressionType.LZ4_COMPRESSION)
                .setDisableAutoCompactions(true)
                .setLevel0SlowdownWritesTrigger(1 << 20).setLevel0StopWritesTrigger(1 << 20);
        List<ColumnFamilyDescriptor> descs = new ArrayList<>();
        descs.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
        for (LogFormat.Cf cf : LogFormat.Cf.values()) {
            descs.add(new ColumnFamilyDescriptor(cf.name().toLowerCase().getBytes(), cfOptions));
        }
        try {
            db = RocksDB.open(dbOptions, dir.toString(), descs, handles);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot open the RocksDB store in " + dir + ": " + e.getMessage()
                    + " (is another process using it?)", e);
        }
        for (LogFormat.Cf cf : LogFormat.Cf.values()) {
            cfs.put(cf, handles.get(1 + cf.ordinal()));
        }
        hadData = existed && !empty();
        writer = new Thread(this::run, "tebaldi-rocksdb-" + dir.getFileName());
        writer.setDaemon(true);
        writer.start();
    }

    private boolean empty() {
        for (ColumnFamilyHandle h : cfs.values()) {
            try (RocksIterator it = db.newIterator(h)) {
                it.seekToFirst();
                if (it.isValid()) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public boolean hadData() {
        return hadData;
    }

    @Override
    public void write(List<LogRecord> records, boolean sync, Runnable done) {
        enqueue(new Write(records, sync, done));
    }

    @Override
    public void load(List<LogRecord.Data> rows) {
        enqueue(new Load(rows));
    }

    @Override
    public void loadEncoded(List<LogRecord> rows) {
        enqueue(new Load(rows));
    }

    @Override
    public void read(Consumer<List<LogRecord.Data>> dataChunk, Consumer<LogContents> done) {
        enqueue(new Read(dataChunk, done));
    }

    /** Queues a request for the writer; after the writer failed, drops it (the queue must not grow unread). */
    private void enqueue(Req r) {
        if (failure == null) {
            queue.add(r);
        }
    }

    /** Why the writer stopped, or null while it runs (docs/cluster.md, "When the store fails"). */
    public String failure() {
        return failure;
    }

    private void run() {
        List<Req> batch = new ArrayList<>();
        try {
            while (true) {
                batch.clear();
                batch.add(queue.take());
                queue.drainTo(batch);
                int i = 0;
                while (i < batch.size()) {
                    Req r = batch.get(i);
                    if (r instanceof Write) {
                        int j = i;
                        while (j < batch.size() && batch.get(j) instanceof Write) {
                            j++;
                        }
                        StoreProfile p = profile;
                        long cpu0 = p == null ? 0 : CPU.getCurrentThreadCpuTime();
                        long wall0 = p == null ? 0 : System.nanoTime();
                        writeAll(batch.subList(i, j));
                        if (p != null) {
                            record(p, batch.subList(i, j), CPU.getCurrentThreadCpuTime() - cpu0,
                                    System.nanoTime() - wall0);
                        }
                        i = j;
                        continue;
                    }
                    if (r instanceof Load l) {
                        load(l);
                    } else if (r instanceof Barrier b) {
                        if (loadsUnflushed) {
                            try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
                                db.flush(fo, cfs.get(LogFormat.Cf.DATA));
                            }
                            loadsUnflushed = false;
                        }
                        b.done().countDown();
                    } else if (r instanceof Read rd) {
                        readAll(rd);
                    } else if (r instanceof Stop) {
                        return;
                    }
                    i++;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RocksDBException | RuntimeException e) {
            fail(e);
        }
    }

    /**
     * The writer cannot go on: nothing this data server logs from now on would be durable. Records why, drops what is
     * queued (and every later request), makes {@link #awaitWritten} throw, and throws the reason on the owner's
     * thread — in a run the data server's failure stops the run with that one message (docs/cluster.md, "When the
     * store fails").
     */
    private void fail(Exception e) {
        String why = e.getMessage() == null ? e.toString() : e.getMessage();
        String hint = why.contains("No space left") || why.contains("NoSpace")
                ? "the disk is full: free space on the file system of " + dir + " and run again"
                : "see the exception logged with it";
        failure = "the durable store in " + dir + " failed (" + why + "); this data server cannot log any more — "
                + hint;
        LOG.error("{} (the data server's failure below carries the cause)", failure);
        queue.clear(); // a waiting awaitWritten sees the failure and throws
        String message = failure;
        owner.execute(() -> {
            throw new StoreFailedException(message, e);
        });
    }


    private void writeAll(List<Req> writes) throws RocksDBException {
        boolean sync = false;
        try (WriteBatch wb = new WriteBatch()) {
            for (Req q : writes) {
                Write w = (Write) q;
                sync |= w.sync();
                List<LogRecord> recs = w.records();
                int from = 0;
                for (int i = 0; i <= recs.size(); i++) {
                    if (i == recs.size() || recs.get(i) instanceof LogRecord.ClearLog) {
                        for (LogFormat.Entry e : format.encodeAll(recs.subList(from, i))) {
                            wb.put(cfs.get(e.cf()), e.key(), e.value());
                        }
                        if (i < recs.size()) {
                            wb.deleteRange(cfs.get(LogFormat.Cf.LOG), new byte[0], LOG_END);
                        }
                        from = i + 1;
                    }
                }
            }
            if (sync && loadsUnflushed) {
                try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
                    db.flush(fo, cfs.get(LogFormat.Cf.DATA));
                }
                loadsUnflushed = false;
            }
            if (wb.count() == 0) {
                if (sync) {
                    db.flushWal(true); // a sync without records (e.g. once per commit epoch): what is written so far
                }
            } else {
                db.write(sync ? synced : async, wb);
            }
        }
        for (Req q : writes) {
            Runnable d = ((Write) q).done();
            if (d != null) {
                owner.execute(d);
            }
        }
    }

    private void load(Load l) throws RocksDBException {
        try (WriteBatch wb = new WriteBatch()) {
            for (LogRecord d : l.rows()) {
                for (LogFormat.Entry e : format.encode(d)) {
                    wb.put(cfs.get(e.cf()), e.key(), e.value());
                }
            }
            db.write(noWal, wb);
        }
        loadsUnflushed = true;
    }

    private void readAll(Read r) {
        List<LogRecord.Data> chunk = new ArrayList<>(DATA_CHUNK);
        try (RocksIterator it = db.newIterator(cfs.get(LogFormat.Cf.DATA))) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                chunk.add(format.decodeData(it.key(), it.value()));
                if (chunk.size() == DATA_CHUNK) {
                    List<LogRecord.Data> c = chunk;
                    owner.execute(() -> r.chunk().accept(c));
                    chunk = new ArrayList<>(DATA_CHUNK);
                }
            }
        }
        List<LogRecord.Data> last = chunk;
        owner.execute(() -> r.chunk().accept(last));
        LogContents c = new LogContents();
        for (LogFormat.Cf cf : List.of(LogFormat.Cf.META, LogFormat.Cf.LOG, LogFormat.Cf.HISTORY)) {
            try (RocksIterator it = db.newIterator(cfs.get(cf))) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    format.decode(cf, it.key(), it.value(), c);
                }
            }
        }
        owner.execute(() -> r.done().accept(c));
    }

    /** Starts recording the writer's groups into {@code p} (null stops). */
    public void profile(StoreProfile p) {
        this.profile = p;
    }

    private static void record(StoreProfile p, List<Req> writes, long cpuNanos, long wallNanos) {
        int records = 0;
        boolean sync = false;
        for (Req q : writes) {
            records += ((Write) q).records().size();
            sync |= ((Write) q).sync();
        }
        p.group(records, sync, cpuNanos, wallNanos);
    }

    /** @throws IllegalStateException with the reason if the writer failed before or while waiting */
    @Override
    public void awaitWritten() throws InterruptedException {
        java.util.concurrent.CountDownLatch l = new java.util.concurrent.CountDownLatch(1);
        enqueue(new Barrier(l));
        while (failure == null && !l.await(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            // a writer that fails after the barrier was queued drains it; one failing just before drops it
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    @Override
    public long sizeBytes() {
        try (var s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.add(new Stop());
        try {
            writer.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) { // closing the database under a running write crashes the JVM: leave it open
            LOG.warn("store {}: its writer is still busy after 30 s; left open", dir);
            return;
        }
        for (ColumnFamilyHandle h : handles) {
            h.close();
        }
        db.close();
        async.close();
        synced.close();
        noWal.close();
        dbOptions.close();
        cfOptions.close();
    }
}
