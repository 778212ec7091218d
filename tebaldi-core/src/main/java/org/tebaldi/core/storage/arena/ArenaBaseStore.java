package org.tebaldi.core.storage.arena;

import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.storage.BaseStore;
import org.tebaldi.core.storage.ByteSink;
import org.tebaldi.core.storage.ByteSource;
import org.tebaldi.core.storage.ColdStore;
import org.tebaldi.core.storage.KeyCodec;
import org.tebaldi.core.storage.StorageStats;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionCodec;

/**
 * The base store of settled versions in an off-heap {@link Arena} with a primitive {@link ArenaIndex}, and a disk
 * tier ({@link ColdStore}) for what exceeds the memory budget (docs/performance.md, "Rows off the heap"). Each
 * record is the key ({@link KeyCodec}) and the version ({@link VersionCodec}). Upkeep ({@link #maintain}) works
 * one segment at a time: when more than a quarter of the written bytes are garbage, the segment with the fewest
 * live bytes is compacted (its current records copied to the head, the segment freed); when the arena holds more
 * than the budget, the oldest segment is spilled — its current records go to the disk tier, except those read
 * since they were written (second chance: copied to the head, the mark cleared) — and its memory released. A
 * record read back from disk moves into the arena again (the disk copy, shadowed, is overwritten by the next
 * spill of the key or deleted with it).
 */
public final class ArenaBaseStore implements BaseStore {
    private final Catalog catalog;
    private final Arena arena;
    private final ArenaIndex index;
    private final long budget;
    private final Supplier<ColdStore> coldFactory;
    private volatile ColdStore cold;
    private volatile long diskKeys;
    private int generation;
    private final ByteSink sink = new ByteSink(512);
    private final ByteSource src = new ByteSource();
    private byte[] scratch = new byte[512];
    /** The segment being compacted or spilled (-1: none), the offset of its next record, and which of the two. */
    private int victim = -1;
    private int cursor;
    private boolean spilling;
    private byte[][] spillKeys = new byte[256][];
    private byte[][] spillValues = new byte[256][];
    private int spilled;
    private boolean closed;
    /** Inside {@link #forEach}: a read from disk leaves the index as it is (the iteration walks it). */
    private boolean iterating;

    /**
     * @param catalog        the tables (a record's table id names its schema)
     * @param budgetBytes    off-heap bytes the arena may keep ({@link Long#MAX_VALUE}: no bound); beyond it, cold
     *                       records go to the disk tier
     * @param expectedKeys   capacity hint per table
     * @param coldFactory    opens the disk tier the first time a record is spilled; null: none (then the budget
     *                       is not enforced)
     */
    public ArenaBaseStore(Catalog catalog, long budgetBytes, int expectedKeys, Supplier<ColdStore> coldFactory) {
        if (budgetBytes < 0) {
            throw new IllegalArgumentException("memory budget " + budgetBytes + " < 0");
        }
        this.catalog = catalog;
        this.budget = budgetBytes;
        long seg = budgetBytes == Long.MAX_VALUE ? Arena.MAX_SEGMENT : Math.min(Arena.MAX_SEGMENT, budgetBytes / 8);
        this.arena = new Arena((int) Math.max(Arena.MIN_SEGMENT, seg));
        this.index = new ArenaIndex(this::holds, Math.max(16, Math.min(expectedKeys, 1 << 12)));
        this.coldFactory = coldFactory;
    }

    /** Loads the body of the record at {@code addr} into {@link #src}; returns its length. */
    private int load(long addr) {
        int len = arena.bodyLength(addr);
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, scratch.length * 2)];
        }
        arena.copyBody(addr, len, scratch);
        src.reset(scratch, 0, len);
        return len;
    }

    private boolean holds(long addr, Key key) {
        load(addr);
        return KeyCodec.matches(key, src);
    }

    private Version decodeValue(Key key) {
        return VersionCodec.decode(catalog.table(key.table()), generation, src);
    }

    private static byte[] keyBytes(Key key) {
        ByteSink s = new ByteSink(24);
        KeyCodec.encode(key, s);
        return s.toArray();
    }

    @Override
    public Version get(Key key) {
        long a = index.get(key);
        if (a >= 0) {
            arena.setFlags(a, arena.flags(a) | Arena.REFERENCED);
            load(a);
            KeyCodec.decode(src);
            return decodeValue(key);
        }
        if (diskKeys == 0) {
            return null;
        }
        byte[] kb = keyBytes(key);
        byte[] vb = cold.get(kb);
        if (vb == null) {
            return null;
        }
        if (!iterating) {
            sink.reset();
            sink.putBytes(kb, 0, kb.length);
            sink.putBytes(vb, 0, vb.length);
            index.put(key, arena.append(sink.array(), 0, sink.length())); // read back: warm again
            diskKeys--;
        }
        src.reset(vb, 0, vb.length);
        return decodeValue(key);
    }

    @Override
    public void put(Key key, Version v) {
        long old = append(key, v);
        if (old >= 0) {
            arena.release(old);
        } else if (diskKeys > 0) {
            byte[] kb = keyBytes(key);
            if (cold.get(kb) != null) {
                diskKeys--; // its disk copy is shadowed from now on
            }
        }
    }

    /** Appends {@code key}'s record holding {@code v} and indexes it; returns the address it replaced, or -1. */
    private long append(Key key, Version v) {
        sink.reset();
        KeyCodec.encode(key, sink);
        VersionCodec.encode(v, generation, sink);
        return index.put(key, arena.append(sink.array(), 0, sink.length()));
    }

    /** {@inheritDoc} Here: no lookup in the disk tier, whose copy of the key {@link #put} would have to shadow. */
    @Override
    public void insert(Key key, Version v) {
        long old = append(key, v);
        if (old >= 0) {
            arena.release(old); // not absent after all: the in-memory copy is superseded as by put
        }
    }

    @Override
    public boolean remove(Key key) {
        long old = index.remove(key);
        if (old >= 0) {
            arena.release(old);
        }
        boolean onDisk = false;
        if (cold != null) {
            byte[] kb = keyBytes(key);
            onDisk = old < 0 && diskKeys > 0 && cold.get(kb) != null;
            cold.delete(kb); // a shadowed copy must not come back
            if (onDisk) {
                diskKeys--;
            }
        }
        return old >= 0 || onDisk;
    }

    @Override
    public boolean contains(Key key) {
        return index.get(key) >= 0 || diskKeys > 0 && cold.get(keyBytes(key)) != null;
    }

    @Override
    public long keyCount() {
        return index.size() + diskKeys;
    }

    @Override
    public void forEach(BiConsumer<Key, Version> visitor) {
        iterating = true;
        try {
            visitAll(visitor);
        } finally {
            iterating = false;
        }
    }

    private void visitAll(BiConsumer<Key, Version> visitor) {
        index.forEachAddress(a -> {
            load(a);
            Key k = KeyCodec.decode(src);
            visitor.accept(k, decodeValue(k));
        });
        if (diskKeys > 0) {
            cold.forEach((kb, vb) -> {
                Key k = KeyCodec.decode(new ByteSource().reset(kb, 0, kb.length));
                if (index.get(k) < 0) {
                    src.reset(vb, 0, vb.length);
                    visitor.accept(k, decodeValue(k));
                }
            });
        }
    }

    @Override
    public void rebaseAll() {
        generation++;
    }

    @Override
    public boolean maintain(int maxRecords) {
        int work = 0;
        while (work < maxRecords) {
            if (victim < 0 && !chooseVictim()) {
                return false;
            }
            while (cursor < arena.used(victim) && work < maxRecords) {
                long addr = Arena.address(victim, cursor);
                cursor += arena.recordSize(addr);
                work++;
                move(addr);
            }
            flushSpill();
            if (cursor >= arena.used(victim)) {
                arena.freeSegment(victim);
                victim = -1;
                arena.trim(budget);
            }
        }
        return true;
    }

    /**
     * Compacts or spills the record at {@code addr} if it is current. Every record superseded, deleted or moved was
     * {@linkplain Arena#release released}, so the record's own flag tells — no lookup of its key, which in a large
     * index is a cache miss per record passed over.
     */
    private void move(long addr) {
        int flags = arena.flags(addr);
        if ((flags & Arena.RELEASED) != 0) {
            return; // superseded
        }
        int len = load(addr);
        Key key = KeyCodec.decode(src);
        int keyEnd = src.position();
        arena.release(addr);
        if (spilling && (flags & Arena.REFERENCED) == 0) {
            if (spilled == spillKeys.length) {
                spillKeys = Arrays.copyOf(spillKeys, spilled * 2);
                spillValues = Arrays.copyOf(spillValues, spilled * 2);
            }
            spillKeys[spilled] = Arrays.copyOfRange(scratch, 0, keyEnd);
            spillValues[spilled++] = Arrays.copyOfRange(scratch, keyEnd, len);
            index.remove(key);
            diskKeys++;
        } else {
            index.put(key, arena.append(scratch, 0, len));
        }
    }

    private void flushSpill() {
        if (spilled > 0) {
            cold.putAll(spillKeys, spillValues, spilled);
            Arrays.fill(spillKeys, 0, spilled, null);
            Arrays.fill(spillValues, 0, spilled, null);
            spilled = 0;
        }
    }

    /** Picks the next segment to compact or spill; false if none needs it. */
    private boolean chooseVictim() {
        long usedTotal = 0;
        int sparse = -1;
        int oldest = -1;
        for (int s = 0; s < arena.segments(); s++) {
            if (arena.isFree(s) || s == arena.head()) {
                continue;
            }
            usedTotal += arena.used(s);
            if (sparse < 0 || arena.live(s) * arena.used(sparse) < arena.live(sparse) * arena.used(s)) {
                sparse = s;
            }
            if (oldest < 0 || arena.born(s) < arena.born(oldest)) {
                oldest = s;
            }
        }
        long garbage = usedTotal - (arena.liveBytes() - (arena.head() < 0 ? 0 : arena.live(arena.head())));
        if (sparse >= 0 && garbage * 4 > usedTotal && 2 * arena.live(sparse) < arena.used(sparse)) {
            victim = sparse;
            spilling = false;
        } else if (coldFactory != null && arena.reserved() > budget
                && (oldest >= 0 || arena.head() >= 0 && arena.used(arena.head()) > 0)) {
            victim = oldest >= 0 ? oldest : arena.sealHead(); // a budget below one segment spills the head too
            spilling = true;
            if (cold == null) {
                cold = coldFactory.get();
            }
        } else {
            arena.trim(budget);
            return false;
        }
        cursor = 0;
        return true;
    }

    @Override
    public StorageStats stats() {
        ColdStore c = cold;
        return new StorageStats(keyCount(), 0, arena.reserved(), arena.liveBytes(), diskKeys,
                c == null ? 0 : c.diskBytes(), 0, 0);
    }

    @Override
    public void clear() {
        index.clear();
        arena.clear();
        if (cold != null) {
            cold.clear();
        }
        diskKeys = 0;
        victim = -1;
        spilled = 0;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        arena.close();
        if (cold != null) {
            cold.close();
        }
    }
}
