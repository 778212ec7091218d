package org.tebaldi.core.storage.arena;

import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongMaps;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2LongMap;
import it.unimi.dsi.fastutil.objects.Object2LongOpenHashMap;
import java.util.Arrays;
import java.util.function.LongConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.KeyPacking;
import org.tebaldi.core.storage.KeyCodec;

/**
 * Key to arena address, in primitive maps only (fastutil's {@code Long2LongOpenHashMap}: two {@code long[]}
 * arrays, nothing per key for the collector to trace or copy): a packable key ({@link KeyPacking}) is looked up by
 * its packed long in its table's map; any other by its 64-bit hash ({@link KeyCodec#hash64}) in one shared map,
 * the record's own key confirming the match — the rare second key with the same hash goes to a small map keyed by
 * {@link Key}. About 21–43 bytes of heap per key (16 bytes per slot, load factor 0.75, doubling). Not thread-safe
 * except {@link #size}.
 */
final class ArenaIndex {
    /** Whether the record at an address holds a given key. */
    interface KeyCheck {
        boolean holds(long address, Key key);
    }

    private Long2LongOpenHashMap[] packed = new Long2LongOpenHashMap[0];
    private int[] arities = new int[0];
    private final Long2LongOpenHashMap hashed = map(16);
    private final Object2LongOpenHashMap<Key> collided = new Object2LongOpenHashMap<>();
    private final KeyCheck check;
    private final int expected;
    private volatile long size;

    /** @param expected capacity hint for each table's map */
    ArenaIndex(KeyCheck check, int expected) {
        this.check = check;
        this.expected = expected;
        collided.defaultReturnValue(-1);
    }

    private static Long2LongOpenHashMap map(int capacity) {
        Long2LongOpenHashMap m = new Long2LongOpenHashMap(capacity);
        m.defaultReturnValue(-1);
        return m;
    }

    /** The packed map of {@code key}'s table if the key packs there ({@code create}: making it), else null. */
    private Long2LongOpenHashMap table(Key key, long p, boolean create) {
        if (p == KeyPacking.UNPACKED) {
            return null;
        }
        int t = key.table();
        if (t >= packed.length) {
            if (!create) {
                return null;
            }
            packed = Arrays.copyOf(packed, t + 1);
            arities = Arrays.copyOf(arities, t + 1);
        }
        Long2LongOpenHashMap m = packed[t];
        if (m == null) {
            if (!create) {
                return null;
            }
            m = map(Math.max(16, expected));
            packed[t] = m;
            arities[t] = key.arity();
        }
        return arities[t] == key.arity() ? m : null;
    }

    /** The address of {@code key}'s record, or -1. */
    long get(Key key) {
        long p = KeyPacking.pack(key);
        Long2LongOpenHashMap m = table(key, p, false);
        if (m != null) {
            return m.get(p);
        }
        long a = hashed.get(KeyCodec.hash64(key));
        if (a >= 0 && check.holds(a, key)) {
            return a;
        }
        return collided.isEmpty() ? -1 : collided.getLong(key);
    }

    /** Points {@code key} at {@code address}; returns the address it had, or -1. */
    long put(Key key, long address) {
        long p = KeyPacking.pack(key);
        Long2LongOpenHashMap m = table(key, p, true);
        if (m != null) {
            long old = m.put(p, address);
            if (old < 0) {
                size++;
            }
            return old;
        }
        long h = KeyCodec.hash64(key);
        long a = hashed.get(h);
        if (a < 0) {
            hashed.put(h, address);
            long old = collided.isEmpty() ? -1 : collided.removeLong(key);
            if (old < 0) {
                size++;
            }
            return old;
        }
        if (check.holds(a, key)) {
            hashed.put(h, address);
            return a;
        }
        long old = collided.put(key, address);
        if (old < 0) {
            size++;
        }
        return old;
    }

    /** Forgets {@code key}; returns the address it had, or -1. */
    long remove(Key key) {
        long p = KeyPacking.pack(key);
        Long2LongOpenHashMap m = table(key, p, false);
        long old;
        if (m != null) {
            old = m.remove(p);
        } else {
            long h = KeyCodec.hash64(key);
            long a = hashed.get(h);
            if (a >= 0 && check.holds(a, key)) {
                old = hashed.remove(h);
            } else {
                old = collided.isEmpty() ? -1 : collided.removeLong(key);
            }
        }
        if (old >= 0) {
            size--;
        }
        return old;
    }

    /** Visits every address (order unspecified; do not change the index meanwhile). */
    void forEachAddress(LongConsumer visitor) {
        for (Long2LongOpenHashMap m : packed) {
            if (m != null) {
                for (Long2LongMap.Entry e : Long2LongMaps.fastIterable(m)) {
                    visitor.accept(e.getLongValue());
                }
            }
        }
        for (Long2LongMap.Entry e : Long2LongMaps.fastIterable(hashed)) {
            visitor.accept(e.getLongValue());
        }
        for (Object2LongMap.Entry<Key> e : collided.object2LongEntrySet()) {
            visitor.accept(e.getLongValue());
        }
    }

    /** Keys indexed (thread-safe, approximate while the owner writes). */
    long size() {
        return size;
    }

    void clear() {
        for (Long2LongOpenHashMap m : packed) {
            if (m != null) {
                m.clear();
                m.trim(Math.max(16, expected));
            }
        }
        hashed.clear();
        hashed.trim(16);
        collided.clear();
        size = 0;
    }
}
