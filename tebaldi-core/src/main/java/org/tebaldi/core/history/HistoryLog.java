package org.tebaldi.core.history;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.KeyPacking;

/**
 * The history one node records (docs/architecture.md, "Verification"): data servers record every read (which
 * version: writer and the writer's write sequence number for that key), every write, and each key's final version
 * order; coordinators record outcomes, and data servers also record the commits they apply (and the aborts they
 * decide when a coordinator fails), so that outcomes survive the loss of a coordinator's log in process mode;
 * duplicates agree and are merged. Appended by one actor; read after the run, once the nodes have stopped.
 * Writer id 0 denotes the initial load.
 *
 * <p>Reads and writes are kept in primitive columns, keys packed into primitives where they fit
 * ({@link KeyPacking}), so recording costs no object per operation and a long run's history stays compact and
 * cheap for the garbage collector; {@link #reads()} and {@link #writes()} are views that build their records on
 * access. The writers of versions that garbage collection pruned are kept the same way ({@link #pruned}), in the
 * order they were pruned, and go in front of their key's version order.
 *
 * <p>Conventions the checker relies on ({@link History}, {@link SerializabilityChecker}): a transaction's
 * {@code writeSeq} for a key counts 1, 2, ... and the version it leaves in the key's version order is its last
 * write. The initial transaction T0 never logs an outcome (it is always committed) and never logs writes; it is
 * the oldest version of every key, whether or not the version order lists it (a read of writer 0 of a key that
 * was never loaded therefore means "read the key's absence before the first insert"). Ids are formatted with
 * {@link org.tebaldi.core.txn.TxnIds#format(long)}.
 */
public final class HistoryLog {
    /** {@code reader} read the {@code writeSeq}-th write of {@code writer} to {@code key}. */
    public record Read(long reader, Key key, long writer, int writeSeq) {
    }

    /** {@code writer} wrote {@code key} for the {@code writeSeq}-th time. */
    public record Write(long writer, Key key, int writeSeq) {
    }

    /** Final outcome of a transaction attempt. */
    public record Outcome(long txn, boolean committed, String type) {
    }

    /**
     * The committed version {@code writer} left on {@code key} (its {@code writeSeq}-th write) now has a final
     * place in the key's version order, directly after the key's previous final version (streamed checking).
     */
    public record Final(Key key, long writer, int writeSeq) {
    }

    /** Keys that cannot be packed, referred to by {@code -1 - index} in a key-meta column. */
    private final List<Key> unpacked = new ArrayList<>();
    private final LongArrayList readReader = new LongArrayList();
    private final IntArrayList readMeta = new IntArrayList();
    private final LongArrayList readKey = new LongArrayList();
    private final LongArrayList readWriter = new LongArrayList();
    private final IntArrayList readSeq = new IntArrayList();
    private final LongArrayList writeWriter = new LongArrayList();
    private final IntArrayList writeMeta = new IntArrayList();
    private final LongArrayList writeKey = new LongArrayList();
    private final IntArrayList writeSeq = new IntArrayList();
    private final LongArrayList copyWriter = new LongArrayList();
    private final IntArrayList copyMeta = new IntArrayList();
    private final LongArrayList copyKey = new LongArrayList();
    private final IntArrayList copySeq = new IntArrayList();
    private final IntArrayList prunedMeta = new IntArrayList();
    private final LongArrayList prunedKey = new LongArrayList();
    private final LongArrayList prunedWriter = new LongArrayList();
    private final IntArrayList finalMeta = new IntArrayList();
    private final LongArrayList finalKey = new LongArrayList();
    private final LongArrayList finalWriter = new LongArrayList();
    private final IntArrayList finalSeq = new IntArrayList();
    private final List<Outcome> outcomes = new ArrayList<>();
    private final Map<Key, long[]> versionOrders = new LinkedHashMap<>();

    /** Appends {@code key} to a key-meta and a packed-key column. */
    private void addKey(Key key, IntArrayList meta, LongArrayList packed) {
        long p = KeyPacking.pack(key);
        if (p == KeyPacking.UNPACKED) {
            meta.add(-1 - unpacked.size());
            unpacked.add(key);
            packed.add(0);
        } else {
            meta.add(KeyPacking.meta(key));
            packed.add(p);
        }
    }

    private Key key(int meta, long packed) {
        return meta < 0 ? unpacked.get(-1 - meta) : KeyPacking.unpack(meta, packed);
    }

    /**
     * Records that {@code reader} read the {@code writeSeq}-th write (1-based; any value for T0) of
     * {@code writer} to {@code key}.
     */
    public void read(long reader, Key key, long writer, int writeSeq) {
        readReader.add(reader);
        addKey(key, readMeta, readKey);
        readWriter.add(writer);
        readSeq.add(writeSeq);
    }

    /** Records the {@code writeSeq}-th write (1-based) of {@code writer} to {@code key}. */
    public void write(long writer, Key key, int writeSeq) {
        writeWriter.add(writer);
        addKey(key, writeMeta, writeKey);
        this.writeSeq.add(writeSeq);
    }

    /**
     * Records that this node served a read of {@code writer}'s committed version of {@code key} (its
     * {@code writeSeq}-th write) that its data server did not serve — a coordinator's cache of remote reads, a backup
     * replica — recorded before that read: the data server recorded the write itself ({@link #write}), but a
     * streamed check may meet this node's chunk first. A whole-history check takes it as the write; the streamed one
     * ({@link IncrementalChecker}) also knows it for a copy, which cannot bring back a writer it already dropped.
     */
    public void copy(long writer, Key key, int writeSeq) {
        copyWriter.add(writer);
        addKey(key, copyMeta, copyKey);
        copySeq.add(writeSeq);
    }

    /** Records the final outcome of attempt {@code txn}; {@code type} is its transaction type (may be null). */
    public void outcome(long txn, boolean committed, String type) {
        outcomes.add(new Outcome(txn, committed, type));
    }

    /**
     * Garbage collection pruned the committed version of {@code key} that {@code writer} wrote; calls for one key
     * come oldest version first.
     */
    public void pruned(Key key, long writer) {
        addKey(key, prunedMeta, prunedKey);
        prunedWriter.add(writer);
    }

    /**
     * Streamed checking ({@link IncrementalChecker}): {@code writer}'s committed version of {@code key} (its
     * {@code writeSeq}-th write) is the next one of the key's final version order. Calls for one key come in
     * version order, each version once; the initial version (writer 0) may be reported first.
     */
    public void finalVersion(Key key, long writer, int writeSeq) {
        addKey(key, finalMeta, finalKey);
        finalWriter.add(writer);
        finalSeq.add(writeSeq);
    }

    /** The versions reported by {@link #finalVersion}, in reporting order (a view; each access builds a record). */
    public List<Final> finals() {
        return view(finalWriter, i -> new Final(key(finalMeta.getInt(i), finalKey.getLong(i)), finalWriter.getLong(i),
                finalSeq.getInt(i)));
    }

    /** Whether nothing at all was recorded. */
    public boolean isEmpty() {
        return readReader.isEmpty() && writeWriter.isEmpty() && copyWriter.isEmpty() && finalWriter.isEmpty()
                && outcomes.isEmpty()
                && prunedWriter.isEmpty() && versionOrders.isEmpty();
    }

    /** Forgets every pruned writer (the store is being rebuilt, with what it remembers of them). */
    public void clearPruned() {
        prunedMeta.clear();
        prunedKey.clear();
        prunedWriter.clear();
    }

    /** The writers {@link #pruned} per key, oldest first, by key. */
    public Map<Key, long[]> prunedOrders() {
        Map<Key, LongArrayList> byKey = new LinkedHashMap<>();
        for (int i = 0; i < prunedWriter.size(); i++) {
            byKey.computeIfAbsent(key(prunedMeta.getInt(i), prunedKey.getLong(i)), k -> new LongArrayList())
                    .add(prunedWriter.getLong(i));
        }
        Map<Key, long[]> out = new LinkedHashMap<>();
        byKey.forEach((k, l) -> out.put(k, l.toLongArray()));
        return out;
    }

    /** The committed writers of {@code key} in version order, oldest first (replaces an earlier entry). */
    public void versionOrder(Key key, long[] writers) {
        versionOrders.put(key, writers);
    }

    /** The recorded reads, in recording order (a read-only view; each access builds a record). */
    public List<Read> reads() {
        return view(readReader, i -> new Read(readReader.getLong(i), key(readMeta.getInt(i), readKey.getLong(i)),
                readWriter.getLong(i), readSeq.getInt(i)));
    }

    /** The recorded writes, in recording order (a read-only view; each access builds a record). */
    public List<Write> writes() {
        return view(writeWriter, i -> new Write(writeWriter.getLong(i), key(writeMeta.getInt(i), writeKey.getLong(i)),
                writeSeq.getInt(i)));
    }

    /** The writes recorded again by {@link #copy}, in recording order (a view; each access builds a record). */
    public List<Write> copies() {
        return view(copyWriter, i -> new Write(copyWriter.getLong(i), key(copyMeta.getInt(i), copyKey.getLong(i)),
                copySeq.getInt(i)));
    }

    /** A read-only list of the records of one column group ({@code ids}: its first column), built on access. */
    private static <T> List<T> view(LongArrayList ids, java.util.function.IntFunction<T> record) {
        return new AbstractList<>() {
            @Override
            public T get(int i) {
                return record.apply(i);
            }

            @Override
            public int size() {
                return ids.size();
            }
        };
    }

    /** The recorded outcomes, in recording order (live list). */
    public List<Outcome> outcomes() {
        return outcomes;
    }

    /** The recorded version orders per key, oldest writer first (live map). */
    public Map<Key, long[]> versionOrders() {
        return versionOrders;
    }

    /**
     * Writes this log in its column layout (the spill format of {@link HistorySpill}): the unpacked keys, then each
     * column's length and values; outcomes and version orders record by record. {@link #readFrom} reads it back.
     *
     * @throws IOException from {@code out}
     */
    public void writeTo(DataOutput out) throws IOException {
        out.writeInt(unpacked.size());
        for (Key k : unpacked) {
            HistoryColumns.writeKey(out, k);
        }
        HistoryColumns.writeColumns(out, readReader, readMeta, readKey, readWriter, readSeq);
        HistoryColumns.writeColumns(out, writeWriter, writeMeta, writeKey, null, writeSeq);
        HistoryColumns.writeColumns(out, copyWriter, copyMeta, copyKey, null, copySeq);
        HistoryColumns.writeColumns(out, prunedWriter, prunedMeta, prunedKey, null, null);
        HistoryColumns.writeColumns(out, finalWriter, finalMeta, finalKey, null, finalSeq);
        out.writeInt(outcomes.size());
        for (Outcome o : outcomes) {
            out.writeLong(o.txn());
            out.writeBoolean(o.committed());
            out.writeBoolean(o.type() != null);
            if (o.type() != null) {
                out.writeUTF(o.type());
            }
        }
        out.writeInt(versionOrders.size());
        for (Map.Entry<Key, long[]> e : versionOrders.entrySet()) {
            HistoryColumns.writeKey(out, e.getKey());
            out.writeInt(e.getValue().length);
            for (long w : e.getValue()) {
                out.writeLong(w);
            }
        }
    }

    /**
     * Reads a log {@link #writeTo} wrote.
     *
     * @throws IOException from {@code in}, or for a negative length (a damaged spill)
     */
    public static HistoryLog readFrom(DataInput in) throws IOException {
        HistoryLog l = new HistoryLog();
        int n = HistoryColumns.length(in);
        for (int i = 0; i < n; i++) {
            l.unpacked.add(HistoryColumns.readKey(in));
        }
        HistoryColumns.readColumns(in, l.readReader, l.readMeta, l.readKey, l.readWriter, l.readSeq);
        HistoryColumns.readColumns(in, l.writeWriter, l.writeMeta, l.writeKey, null, l.writeSeq);
        HistoryColumns.readColumns(in, l.copyWriter, l.copyMeta, l.copyKey, null, l.copySeq);
        HistoryColumns.readColumns(in, l.prunedWriter, l.prunedMeta, l.prunedKey, null, null);
        HistoryColumns.readColumns(in, l.finalWriter, l.finalMeta, l.finalKey, null, l.finalSeq);
        n = HistoryColumns.length(in);
        for (int i = 0; i < n; i++) {
            long txn = in.readLong();
            boolean committed = in.readBoolean();
            l.outcomes.add(new Outcome(txn, committed, in.readBoolean() ? in.readUTF() : null));
        }
        n = HistoryColumns.length(in);
        for (int i = 0; i < n; i++) {
            Key k = HistoryColumns.readKey(in);
            long[] writers = new long[HistoryColumns.length(in)];
            for (int j = 0; j < writers.length; j++) {
                writers[j] = in.readLong();
            }
            l.versionOrders.put(k, writers);
        }
        return l;
    }

    /**
     * One record column group, column after column (ids, key metas, packed keys, then optionally a second long and
     * an int column): neighbouring values of one column are alike, which the spill's compression exploits.
     */
}
