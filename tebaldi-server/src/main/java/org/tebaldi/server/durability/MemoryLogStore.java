package org.tebaldi.server.durability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.tebaldi.core.model.Catalog;

/**
 * A {@link LogStore} in memory, for tests and the simulated runtime: requests complete synchronously (callbacks
 * still go through the owner), and it models what a crash keeps — synced writes survive; of the unsynced ones,
 * {@link #crash} keeps a prefix (a write-ahead log loses a suffix, never a middle). The same instance is reopened
 * after a crash through {@link #factory}.
 */
public final class MemoryLogStore implements LogStore {
    private static final java.util.Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    private final Map<LogFormat.Cf, TreeMap<byte[], byte[]>> durable = new EnumMap<>(LogFormat.Cf.class);
    private final List<List<Object[]>> unsynced = new ArrayList<>();
    private LogFormat format;
    private Executor owner;
    private boolean hadData;
    private long writes;
    private long syncs;
    private long syncedPrecommits;

    public MemoryLogStore() {
        for (LogFormat.Cf cf : LogFormat.Cf.values()) {
            durable.put(cf, new TreeMap<>(ORDER));
        }
    }

    /** A factory handing out {@code stores[ds]} (reopened with its contents after a crash). */
    public static Factory factory(MemoryLogStore[] stores) {
        return (ds, catalog, owner) -> stores[ds].open(catalog, owner);
    }

    /** A factory opening a new, empty store per data server (experiments without disks: nothing survives). */
    public static Factory fresh() {
        return (ds, catalog, owner) -> new MemoryLogStore().open(catalog, owner);
    }

    /**
     * Opens (or reopens, with its contents) this store for a data server whose callbacks run through {@code owner}
     * — e.g. a backup's replica handed to the promoted data server.
     */
    public MemoryLogStore open(Catalog catalog, Executor owner) {
        this.format = new LogFormat(catalog);
        this.owner = owner;
        this.hadData = durable.values().stream().anyMatch(m -> !m.isEmpty());
        return this;
    }

    @Override
    public boolean hadData() {
        return hadData;
    }

    @Override
    public void write(List<LogRecord> records, boolean sync, Runnable done) {
        List<Object[]> batch = new ArrayList<>();
        for (LogRecord r : records) {
            if (r instanceof LogRecord.ClearLog) {
                batch.add(new Object[]{LogFormat.Cf.LOG, null, null});
            } else {
                for (LogFormat.Entry e : format.encode(r)) {
                    batch.add(new Object[]{e.cf(), e.key(), e.value()});
                }
            }
        }
        unsynced.add(batch);
        writes++;
        if (sync) {
            syncs++;
            if (records.stream().anyMatch(r -> r instanceof LogRecord.Precommit)) {
                syncedPrecommits++;
            }
            syncAll();
        }
        if (done != null) {
            owner.execute(done);
        }
    }

    @Override
    public void load(List<LogRecord.Data> rows) {
        write(new ArrayList<>(rows), false, null);
    }

    private void syncAll() {
        for (List<Object[]> b : unsynced) {
            apply(b);
        }
        unsynced.clear();
    }

    private void apply(List<Object[]> batch) {
        for (Object[] op : batch) {
            TreeMap<byte[], byte[]> m = durable.get((LogFormat.Cf) op[0]);
            if (op[1] == null) {
                m.clear();
            } else {
                m.put((byte[]) op[1], (byte[]) op[2]);
            }
        }
    }

    @Override
    public void read(Consumer<List<LogRecord.Data>> dataChunk, Consumer<LogContents> done) {
        Map<LogFormat.Cf, TreeMap<byte[], byte[]>> view = new EnumMap<>(LogFormat.Cf.class);
        durable.forEach((cf, m) -> view.put(cf, new TreeMap<>(m)));
        for (List<Object[]> b : unsynced) {
            for (Object[] op : b) {
                TreeMap<byte[], byte[]> m = view.get((LogFormat.Cf) op[0]);
                if (op[1] == null) {
                    m.clear();
                } else {
                    m.put((byte[]) op[1], (byte[]) op[2]);
                }
            }
        }
        List<LogRecord.Data> data = new ArrayList<>();
        view.get(LogFormat.Cf.DATA).forEach((k, v) -> data.add(format.decodeData(k, v)));
        LogContents c = new LogContents();
        for (LogFormat.Cf cf : List.of(LogFormat.Cf.META, LogFormat.Cf.LOG, LogFormat.Cf.HISTORY)) {
            view.get(cf).forEach((k, v) -> format.decode(cf, k, v, c));
        }
        owner.execute(() -> dataChunk.accept(data));
        owner.execute(() -> done.accept(c));
    }

    /**
     * A crash (power loss): synced writes survive, and of the unsynced ones a prefix chosen by {@code rnd} (all with
     * {@code keepAll}, as after a process kill that leaves the operating system's buffers to reach the disk).
     */
    public void crash(Random rnd, boolean keepAll) {
        int keep = keepAll ? unsynced.size() : rnd.nextInt(unsynced.size() + 1);
        for (int i = 0; i < keep; i++) {
            apply(unsynced.get(i));
        }
        unsynced.clear();
    }

    @Override
    public void awaitWritten() {
        syncAll();
    }

    /** Synced writes so far. */
    public long syncs() {
        return syncs;
    }

    /** Synced writes so far that carried a precommit record (a per-transaction sync before the vote). */
    public long syncedPrecommits() {
        return syncedPrecommits;
    }

    /** Batches written so far. */
    public long writes() {
        return writes;
    }

    @Override
    public void close() {
    }
}
