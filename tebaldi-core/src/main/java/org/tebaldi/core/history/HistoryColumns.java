package org.tebaldi.core.history;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.tebaldi.core.model.Key;

/**
 * The column encoding of {@link HistoryLog#writeTo} and {@link HistoryLog#readFrom}: a column block is its length
 * and then, per column, its values in {@link DataOutput}'s byte order; keys that cannot be packed are written as
 * table, arity and parts. Lengths below zero are refused as a damaged spill ({@link IOException}).
 */
final class HistoryColumns {
    private HistoryColumns() {
    }

    static void writeColumns(DataOutput out, LongArrayList ids, IntArrayList meta, LongArrayList keys,
            LongArrayList longs, IntArrayList ints) throws IOException {
        int n = ids.size();
        out.writeInt(n);
        writeLongs(out, ids, n);
        writeInts(out, meta, n);
        writeLongs(out, keys, n);
        if (longs != null) {
            writeLongs(out, longs, n);
        }
        if (ints != null) {
            writeInts(out, ints, n);
        }
    }

    /**
     * Scratch for {@link #writeTo}'s columns: each is copied into it a block at a time and written with one call, in
     * the byte order of {@link DataOutput#writeLong} — not four to eight calls per value (the spill writer spent a
     * third of its time in them: docs/architecture.md, "Verification").
     */
    static final ThreadLocal<ByteBuffer> SCRATCH = ThreadLocal.withInitial(() -> ByteBuffer.allocate(1 << 15));

    static void writeLongs(DataOutput out, LongArrayList l, int n) throws IOException {
        ByteBuffer b = SCRATCH.get();
        long[] a = l.elements();
        int block = b.capacity() / Long.BYTES;
        for (int off = 0; off < n; off += block) {
            int m = Math.min(block, n - off);
            b.clear();
            b.asLongBuffer().put(a, off, m);
            out.write(b.array(), 0, m * Long.BYTES);
        }
    }

    static void writeInts(DataOutput out, IntArrayList l, int n) throws IOException {
        ByteBuffer b = SCRATCH.get();
        int[] a = l.elements();
        int block = b.capacity() / Integer.BYTES;
        for (int off = 0; off < n; off += block) {
            int m = Math.min(block, n - off);
            b.clear();
            b.asIntBuffer().put(a, off, m);
            out.write(b.array(), 0, m * Integer.BYTES);
        }
    }

    static void readColumns(DataInput in, LongArrayList ids, IntArrayList meta, LongArrayList keys,
            LongArrayList longs, IntArrayList ints) throws IOException {
        int n = length(in);
        readLongs(in, ids, n);
        meta.ensureCapacity(n);
        for (int i = 0; i < n; i++) {
            meta.add(in.readInt());
        }
        readLongs(in, keys, n);
        if (longs != null) {
            readLongs(in, longs, n);
        }
        if (ints != null) {
            ints.ensureCapacity(n);
            for (int i = 0; i < n; i++) {
                ints.add(in.readInt());
            }
        }
    }

    static void readLongs(DataInput in, LongArrayList l, int n) throws IOException {
        l.ensureCapacity(n);
        for (int i = 0; i < n; i++) {
            l.add(in.readLong());
        }
    }

    static int length(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("damaged history spill: negative length " + n);
        }
        return n;
    }

    static void writeKey(DataOutput out, Key k) throws IOException {
        out.writeInt(k.table());
        out.writeInt(k.arity());
        for (int i = 0; i < k.arity(); i++) {
            out.writeLong(k.part(i));
        }
    }

    static Key readKey(DataInput in) throws IOException {
        int table = in.readInt();
        long[] parts = new long[length(in)];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = in.readLong();
        }
        return Key.of(table, parts);
    }
}
