package org.tebaldi.core.storage;

import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/**
 * The stored form of a settled version (docs/performance.md, "Rows off the heap"): everything a {@link Version}
 * holds that outlives its writer — so a version decoded again is, to every mechanism, the one that was encoded:
 *
 * <pre>
 * flags      1 byte: 1 deleted (no row), 2 final version reported to the history checker, 4 CC metadata follows
 * writer     zigzag varint
 * writeSeq   varint
 * orderKey   zigzag varint
 * [CC metadata, flag 4: generation (varint), writer leaf and instance (zigzag), stamps, second stamps — each a
 *  slot count (varint, 0: none), a presence bitmap of ceil(count / 8) bytes, the present values (zigzag)]
 * [row, unless deleted: {@link RowCodec}]
 * </pre>
 *
 * <p>The <b>generation</b> counts the partial restarts of the data server's CC module (dissertation §5.5.1): a
 * version encoded with CC metadata in an earlier generation is decoded re-based ({@link Version#rebase}), as the
 * restart re-based every version in memory — the base store is re-based lazily, without visiting it. Versions of
 * the initial load and re-based ones carry no CC metadata (3–4 bytes besides the row).
 */
public final class VersionCodec {
    private static final int DELETED = 1;
    private static final int REPORTED = 2;
    private static final int CC_META = 4;

    private VersionCodec() {
    }

    /**
     * Appends settled, committed {@code v} to {@code out}.
     *
     * @param generation the CC module's current generation
     * @throws IllegalArgumentException if {@code v} is not committed and settled (only those leave the heap)
     */
    public static void encode(Version v, int generation, ByteSink out) {
        if (!v.committed() || !v.settled()) {
            throw new IllegalArgumentException("only committed, settled versions are stored: " + v);
        }
        long[] stamps = v.stampSlots();
        long[] aux = v.auxSlots();
        boolean meta = v.writerLeaf() != -1 || v.writerInstance() != 0 || stamps != null || aux != null;
        out.putByte((v.deleted() ? DELETED : 0) | (v.finalReported() ? REPORTED : 0) | (meta ? CC_META : 0));
        out.putZigZag(v.writer());
        out.putVarLong(v.writeSeq());
        out.putZigZag(v.orderKey());
        if (meta) {
            out.putVarLong(generation);
            out.putZigZag(v.writerLeaf());
            out.putZigZag(v.writerInstance());
            putSlots(stamps, out);
            putSlots(aux, out);
        }
        if (!v.deleted()) {
            RowCodec.encode(v.value(), out);
        }
    }

    /**
     * Reads a version of a row of {@code table} written by {@link #encode}: committed, settled, and marked clean
     * (unchanged since it was read; {@link Version#modified}).
     *
     * @param generation the CC module's current generation: older CC metadata is dropped (re-based)
     * @throws IllegalStateException on malformed bytes
     */
    public static Version decode(TableSchema table, int generation, ByteSource in) {
        int flags = in.getByte();
        long writer = in.getZigZag();
        int seq = in.getVarInt();
        long orderKey = in.getZigZag();
        int leaf = -1;
        long instance = 0;
        long[] stamps = null;
        long[] aux = null;
        boolean stale = false;
        if ((flags & CC_META) != 0) {
            stale = in.getVarInt() < generation;
            leaf = (int) in.getZigZag();
            instance = in.getZigZag();
            stamps = getSlots(in);
            aux = getSlots(in);
        }
        Row row = (flags & DELETED) != 0 ? null : RowCodec.decode(table, in);
        Version v = new Version(writer, leaf, instance, row, true);
        v.restoreWriteSeq(Math.max(1, seq));
        v.setOrderKey(orderKey);
        v.restoreSlots(stamps, aux);
        v.settle();
        if ((flags & REPORTED) != 0) {
            v.markFinalReported();
        }
        if (stale) {
            v.rebase();
        }
        v.markClean();
        return v;
    }

    private static void putSlots(long[] slots, ByteSink out) {
        if (slots == null) {
            out.putVarLong(0);
            return;
        }
        out.putVarLong(slots.length);
        for (int b = 0; b < slots.length; b += 8) {
            int bits = 0;
            for (int i = b; i < Math.min(slots.length, b + 8); i++) {
                if (slots[i] != Version.NO_STAMP) {
                    bits |= 1 << (i - b);
                }
            }
            out.putByte(bits);
        }
        for (long s : slots) {
            if (s != Version.NO_STAMP) {
                out.putZigZag(s);
            }
        }
    }

    private static long[] getSlots(ByteSource in) {
        int n = in.getVarInt();
        if (n == 0) {
            return null;
        }
        int at = in.position();
        byte[] b = in.array();
        in.skip((n + 7) >>> 3);
        long[] slots = new long[n];
        for (int i = 0; i < n; i++) {
            slots[i] = (b[at + (i >>> 3)] & (1 << (i & 7))) != 0 ? in.getZigZag() : Version.NO_STAMP;
        }
        return slots;
    }
}
