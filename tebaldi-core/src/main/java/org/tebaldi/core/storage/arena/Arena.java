package org.tebaldi.core.storage.arena;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Off-heap memory for records, managed as an append-only log (docs/performance.md, "Rows off the heap"): direct
 * {@link ByteBuffer} segments (64 KiB growing to {@code maxSegment}, 8 MiB by default), records appended to the
 * newest (the head), each {@code [flags: 1 byte][body length: varint][body]}; an address is {@code segment << 32 |
 * offset}. Each segment counts its live bytes: {@link #release} subtracts a superseded record, and a segment
 * whose records all moved elsewhere is {@linkplain #freeSegment freed} for reuse (never handed back to the
 * collector while the arena lives: direct memory goes back to the OS only when its buffer object is collected,
 * which for an old-generation object may be never). Flag bit 1 marks a record read since it was written or last
 * passed over by the spill (second chance, {@link ArenaBaseStore}); bit 2 marks a released record, so the
 * compaction can tell garbage from a current record without looking its key up. Owned by one thread;
 * {@link #reserved} and {@link #liveBytes} may be read by others.
 */
final class Arena {
    static final int MIN_SEGMENT = 64 << 10;
    static final int MAX_SEGMENT = 8 << 20;
    static final int REFERENCED = 1;
    /** Flag bit 2: the record was {@linkplain #release released} (superseded, deleted or moved): it is garbage. */
    static final int RELEASED = 2;

    private final int maxSegment;
    private ByteBuffer[] segs = new ByteBuffer[8];
    private int[] used = new int[8];
    private long[] live = new long[8];
    /** When each segment became the head (larger: younger). */
    private long[] born = new long[8];
    private boolean[] free = new boolean[8];
    private int count;
    private int head = -1;
    private long births;
    private int nextSize = MIN_SEGMENT;
    /** Free segments (a zero-capacity one's memory was released by {@link #trim}; its id is reused). */
    private final IntArrayList freeList = new IntArrayList();
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);
    private volatile long reserved;
    private volatile long liveBytes;

    /** @param maxSegment the largest segment, bytes (a larger record gets a segment of its own size) */
    Arena(int maxSegment) {
        this.maxSegment = Math.max(MIN_SEGMENT, maxSegment);
    }

    static long address(int seg, int off) {
        return (long) seg << 32 | off;
    }

    static int segment(long addr) {
        return (int) (addr >>> 32);
    }

    static int offset(long addr) {
        return (int) addr;
    }

    private static int varSize(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** Appends a record with body {@code b[off, off+len)}; returns its address. */
    long append(byte[] b, int off, int len) {
        int total = 1 + varSize(len) + len;
        if (head < 0 || used[head] + total > segs[head].capacity()) {
            newHead(total);
        }
        ByteBuffer s = segs[head];
        int at = used[head];
        int p = at;
        s.put(p++, (byte) 0);
        int v = len;
        while ((v & ~0x7F) != 0) {
            s.put(p++, (byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        s.put(p++, (byte) v);
        s.put(p, b, off, len);
        used[head] = at + total;
        live[head] += total;
        liveBytes += total;
        return address(head, at);
    }

    private void newHead(int atLeast) {
        int pick = -1;
        int slot = -1;
        for (int i = 0; i < freeList.size(); i++) {
            int cap = segs[freeList.getInt(i)].capacity();
            if (cap >= atLeast && (pick < 0 || cap > segs[freeList.getInt(pick)].capacity())) {
                pick = i;
            } else if (cap == 0 && slot < 0) {
                slot = i;
            }
        }
        int seg;
        if (pick >= 0) {
            seg = freeList.removeInt(pick);
        } else {
            if (slot >= 0) {
                seg = freeList.removeInt(slot); // a slot whose memory trim() released
            } else {
                seg = count++;
                if (seg == segs.length) {
                    int n = segs.length * 2;
                    segs = Arrays.copyOf(segs, n);
                    used = Arrays.copyOf(used, n);
                    live = Arrays.copyOf(live, n);
                    born = Arrays.copyOf(born, n);
                    free = Arrays.copyOf(free, n);
                }
            }
            int size = Math.max(nextSize, atLeast);
            nextSize = Math.min(maxSegment, nextSize * 2);
            segs[seg] = ByteBuffer.allocateDirect(size);
            reserved += size;
        }
        free[seg] = false;
        used[seg] = 0;
        live[seg] = 0;
        born[seg] = ++births;
        head = seg;
    }

    /** Length of the body of the record at {@code addr}. */
    int bodyLength(long addr) {
        ByteBuffer s = segs[segment(addr)];
        int p = offset(addr) + 1;
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = s.get(p++);
            v |= (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
    }

    /** Bytes the record at {@code addr} takes, header included. */
    int recordSize(long addr) {
        int len = bodyLength(addr);
        return 1 + varSize(len) + len;
    }

    /** Copies the body of the record at {@code addr}, {@code len} bytes ({@link #bodyLength}), into {@code dst}. */
    void copyBody(long addr, int len, byte[] dst) {
        segs[segment(addr)].get(offset(addr) + 1 + varSize(len), dst, 0, len);
    }

    int flags(long addr) {
        return segs[segment(addr)].get(offset(addr));
    }

    void setFlags(long addr, int flags) {
        segs[segment(addr)].put(offset(addr), (byte) flags);
    }

    /** The record at {@code addr} was superseded or deleted: its bytes are garbage. */
    void release(long addr) {
        int n = recordSize(addr);
        setFlags(addr, flags(addr) | RELEASED);
        live[segment(addr)] -= n;
        liveBytes -= n;
    }

    /** The segment every write goes to now (-1 before the first). */
    int head() {
        return head;
    }

    /** Ends the head segment (the next record starts a new one); returns it. */
    int sealHead() {
        int h = head;
        head = -1;
        return h;
    }

    /** Segments ever allocated (ids 0..count-1; some may be free). */
    int segments() {
        return count;
    }

    boolean isFree(int seg) {
        return free[seg];
    }

    /** Bytes written into {@code seg}. */
    int used(int seg) {
        return used[seg];
    }

    long live(int seg) {
        return live[seg];
    }

    long born(int seg) {
        return born[seg];
    }

    int capacity(int seg) {
        return segs[seg].capacity();
    }

    /** Makes {@code seg} (none of whose records is current any more) reusable. */
    void freeSegment(int seg) {
        if (seg == head) {
            head = -1;
        }
        liveBytes -= live[seg];
        used[seg] = 0;
        live[seg] = 0;
        free[seg] = true;
        freeList.add(seg);
    }

    /** Releases free segments' memory to the OS while more than {@code limit} bytes are reserved. */
    void trim(long limit) {
        for (int i = 0; i < freeList.size() && reserved > limit; i++) {
            int seg = freeList.getInt(i);
            int cap = segs[seg].capacity();
            if (cap > 0) {
                freeBuffer(segs[seg]);
                segs[seg] = EMPTY;
                reserved -= cap;
            }
        }
    }

    /** Every segment becomes free (the arena's memory is kept for reuse). */
    void clear() {
        freeList.clear();
        for (int i = 0; i < count; i++) {
            used[i] = 0;
            live[i] = 0;
            free[i] = true;
            freeList.add(i);
        }
        head = -1;
        liveBytes = 0;
    }

    /** Frees every segment's memory now. The arena is unusable after. */
    void close() {
        for (int i = 0; i < count; i++) {
            freeBuffer(segs[i]);
            segs[i] = null;
        }
        count = 0;
        freeList.clear();
        head = -1;
        reserved = 0;
        liveBytes = 0;
    }

    /** Off-heap bytes reserved (every segment, free ones too). */
    long reserved() {
        return reserved;
    }

    /** Bytes of current records. */
    long liveBytes() {
        return liveBytes;
    }

    private static final Method INVOKE_CLEANER;
    private static final Object UNSAFE;

    static {
        Method m = null;
        Object u = null;
        try {
            Class<?> c = Class.forName("sun.misc.Unsafe");
            java.lang.reflect.Field f = c.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            u = f.get(null);
            m = c.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            m = null; // the buffer's memory then goes back when the collector finds it unreachable
        }
        INVOKE_CLEANER = m;
        UNSAFE = u;
    }

    /** Returns a direct buffer's memory to the OS now (sun.misc.Unsafe#invokeCleaner), if the JDK allows it. */
    private static void freeBuffer(ByteBuffer b) {
        if (b == null || INVOKE_CLEANER == null || b.capacity() == 0) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, b);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // left to the collector
        }
    }
}
