package org.tebaldi.core.storage;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.model.Row;

/**
 * One version of a row in the multiversion store (dissertation §4.3, storage module): the value (null for a
 * delete), the writer transaction, the writer's leaf group and instance (its group path in the CC tree),
 * whether it is committed, and per-CC-node stamps (e.g. SSI commit timestamp, TSO timestamp) indexed by CC
 * tree node id. {@code writeSeq} counts the writer's writes to this key (1 for its first), so that a reader
 * of an overwritten value can be recognised as an intermediate read.
 *
 * <p>Owned by one data-server actor; not thread-safe.
 */
public final class Version {
    /** Writer id of versions created by loading (the virtual initial transaction T0). */
    public static final long INITIAL_WRITER = 0L;
    /** Value of a stamp that was never set. */
    public static final long NO_STAMP = Long.MIN_VALUE;
    /**
     * What the root's {@code chooseRead} returns when the row does not exist in the reader's view although later
     * versions do (e.g. an SSI snapshot taken before the row was inserted): the read returns no row. Distinct from
     * null, which lets the framework read the latest committed version. A marker compared by identity: never stored
     * in a chain, never modified.
     */
    public static final Version ABSENT = new Version(INITIAL_WRITER, -1, 0, null, true);

    private final long writer;
    private int writerLeaf;
    private long writerInstance;
    private Row value;
    private int writeSeq;
    private boolean committed;
    private long[] stamps;
    private long[] aux;
    private List<VersionReader> foreignReaders;
    private long orderKey;
    private boolean settled;
    private boolean finalReported;
    /** Changed since it was decoded from the base store ({@link VersionCodec}); set by every mutator. */
    private boolean modified = true;

    public Version(long writer, int writerLeaf, long writerInstance, Row value, boolean committed) {
        this.writer = writer;
        this.writerLeaf = writerLeaf;
        this.writerInstance = writerInstance;
        this.value = value;
        this.writeSeq = 1;
        this.committed = committed;
    }

    /** A committed version of the initial load (settled: nothing can be ordered before the load). */
    public static Version initial(Row value) {
        Version v = new Version(INITIAL_WRITER, -1, 0, value, true);
        v.settled = true;
        return v;
    }

    /**
     * This version's place in its key's version order: strictly increasing along the {@link VersionChain}, set by
     * the chain when the version is installed, and kept in the durability log so that recovery can tell which of
     * a key's surviving versions is the latest (dissertation §4.5.4, "ordering information for writes").
     */
    public long orderKey() {
        return orderKey;
    }

    /** Sets the order key (the chain when installing; recovery when rebuilding a version). */
    public void setOrderKey(long key) {
        this.orderKey = key;
        modified = true;
    }

    /**
     * Whether every CC confirmed that no ongoing or future transaction will be ordered before this version's
     * writer (garbage collection, dissertation §4.5.3): committed versions older than a settled one in the chain
     * can no longer be read and are pruned.
     */
    public boolean settled() {
        return settled;
    }

    /**
     * Marks the version settled (its GC epoch was confirmed by every CC).
     *
     * @throws IllegalStateException if it is not committed
     */
    public void settle() {
        if (!committed) {
            throw new IllegalStateException("only committed versions can be settled: " + this);
        }
        settled = true;
        modified = true;
    }

    /**
     * Whether the history recorder already reported this version's place in its key's version order as final
     * (streamed verification, {@code org.tebaldi.core.history.IncrementalChecker}).
     */
    public boolean finalReported() {
        return finalReported;
    }

    /** Marks the version's place as reported final (history recorder only). */
    public void markFinalReported() {
        finalReported = true;
        modified = true;
    }

    public long writer() {
        return writer;
    }

    /** CC-tree leaf node id of the writer's group; -1 for the initial load. */
    public int writerLeaf() {
        return writerLeaf;
    }

    /** Instance value of the writer within a partition-by-instance leaf (0 otherwise). */
    public long writerInstance() {
        return writerInstance;
    }

    /** The row, or null if this version deletes the row. */
    public Row value() {
        return value;
    }

    public boolean deleted() {
        return value == null;
    }

    public int writeSeq() {
        return writeSeq;
    }

    public boolean committed() {
        return committed;
    }

    /**
     * Recovery: the restored version is its writer's {@code seq}-th write to this key (as logged), so reads of it
     * name the write the recorded history lists as the writer's final one.
     *
     * @throws IllegalArgumentException if {@code seq} < 1
     */
    public void restoreWriteSeq(int seq) {
        if (seq < 1) {
            throw new IllegalArgumentException("write sequence " + seq + " < 1");
        }
        writeSeq = seq;
        modified = true;
    }

    /** Marks the version committed (commit phase). */
    public void commit() {
        committed = true;
        modified = true;
        foreignReaders = null;
    }

    /**
     * The writer writes this key again: the value is replaced in place and {@code writeSeq} grows. Readers of the
     * previous value are invalidated (their read became intermediate).
     */
    public void overwrite(Row newValue) {
        value = newValue;
        writeSeq++;
        modified = true;
        invalidateReaders("intermediate read: writer " + writer + " overwrote the version it had read");
    }

    /** Records that another transaction read this uncommitted version. */
    public void addForeignReader(VersionReader r) {
        if (foreignReaders == null) {
            foreignReaders = new ArrayList<>(2);
        }
        foreignReaders.add(r);
    }

    /** Invalidates every foreign reader (e.g. the writer aborted). */
    public void invalidateReaders(String why) {
        if (foreignReaders != null) {
            for (VersionReader r : foreignReaders) {
                r.doom(why);
            }
            foreignReaders = null;
        }
    }

    /** The stamp set by CC tree node {@code ccNode}, or {@link #NO_STAMP}. */
    public long stamp(int ccNode) {
        return stamps == null || ccNode >= stamps.length ? NO_STAMP : stamps[ccNode];
    }

    /** Sets the stamp of CC tree node {@code ccNode}. */
    public void setStamp(int ccNode, long value) {
        stamps = grow(stamps, ccNode);
        stamps[ccNode] = value;
        modified = true;
    }

    /**
     * Forgets the concurrency-control metadata of a committed version — its writer's group and every stamp — as if
     * a virtual recovery transaction beneath the root had written it (dissertation §4.5.4, used by the partial
     * restart of §5.5.1 to rebuild the CC module from the storage module). The writer id stays (history). A rebased
     * version is settled: the virtual recovery transaction precedes every transaction of the new CC module.
     *
     * @throws IllegalStateException if the version is not committed
     */
    public void rebase() {
        if (!committed) {
            throw new IllegalStateException("only committed versions can be rebased: " + this);
        }
        writerLeaf = -1;
        writerInstance = 0;
        stamps = null;
        aux = null;
        settled = true;
        modified = true;
    }

    /** A second per-node stamp (e.g. the SSI batch a version belongs to), or {@link #NO_STAMP}. */
    public long auxStamp(int ccNode) {
        return aux == null || ccNode >= aux.length ? NO_STAMP : aux[ccNode];
    }

    /** Sets the second stamp of CC tree node {@code ccNode}. */
    public void setAuxStamp(int ccNode, long value) {
        aux = grow(aux, ccNode);
        aux[ccNode] = value;
        modified = true;
    }

    /** Every stamp array slot (null if none was set); the store's codec only. */
    long[] stampSlots() {
        return stamps;
    }

    /** Every second-stamp slot (null if none was set); the store's codec only. */
    long[] auxSlots() {
        return aux;
    }

    /** Restores the stamp arrays (the store's codec, decoding a settled version). */
    void restoreSlots(long[] stamps, long[] aux) {
        this.stamps = stamps;
        this.aux = aux;
        modified = true;
    }

    /** Whether the version changed since {@link #markClean} (a decoded version that did not goes back unwritten). */
    boolean modified() {
        return modified;
    }

    /** The version is exactly what the base store holds (the codec, after decoding it). */
    void markClean() {
        modified = false;
    }

    private static long[] grow(long[] a, int index) {
        if (a != null && index < a.length) {
            return a;
        }
        long[] s = new long[Math.max(index + 1, 4)];
        java.util.Arrays.fill(s, NO_STAMP);
        if (a != null) {
            System.arraycopy(a, 0, s, 0, a.length);
        }
        return s;
    }

    @Override
    public String toString() {
        return "v(w=" + writer + (committed ? ",c" : ",u") + ",seq=" + writeSeq + ")";
    }
}
