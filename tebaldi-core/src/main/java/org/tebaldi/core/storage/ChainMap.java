package org.tebaldi.core.storage;

import it.unimi.dsi.fastutil.longs.Long2ObjectMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectMaps;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;
import java.util.Arrays;
import java.util.function.BiConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.KeyPacking;

/**
 * Key to {@link VersionChain}: keys packed into one {@code long} where their parts fit ({@link KeyPacking}), in one
 * open-addressing primitive map per table (fastutil), so a lookup touches no {@code Key} object and the map keeps
 * none per key; other keys in a map keyed by {@link Key}. Not thread-safe, except {@link #size} (approximate while
 * the owner writes).
 */
final class ChainMap {
    @SuppressWarnings("unchecked")
    private Long2ObjectOpenHashMap<VersionChain>[] packed = new Long2ObjectOpenHashMap[0];
    /** The arity of each table's packed keys (fixed by its first key; keys of another arity are not packed). */
    private int[] arities = new int[0];
    private final Object2ObjectOpenHashMap<Key, VersionChain> other = new Object2ObjectOpenHashMap<>();
    private final int expectedKeys;
    /**
     * Most entries a table's map is created (or trimmed back) with; it grows by doubling past that. Small, because a
     * cluster of many data servers makes one map per table on each: 200 servers × 9 TPC-C tables at 65,536 entries
     * were 2.7 GB of empty tables under hash placement.
     */
    private static final int INITIAL_CAPACITY = 1 << 12;

    /** @param expectedKeys capacity hint (keys of the largest table) */
    ChainMap(int expectedKeys) {
        this.expectedKeys = expectedKeys;
    }

    /** The packed map of {@code key}'s table if the key is packable there ({@code create}: making it), else null. */
    private Long2ObjectOpenHashMap<VersionChain> table(Key key, long p, boolean create) {
        if (p == KeyPacking.UNPACKED) {
            return null;
        }
        int table = key.table();
        if (table >= packed.length) {
            if (!create) {
                return null;
            }
            packed = Arrays.copyOf(packed, table + 1);
            arities = Arrays.copyOf(arities, table + 1);
        }
        Long2ObjectOpenHashMap<VersionChain> m = packed[table];
        if (m == null) {
            if (!create) {
                return null;
            }
            m = new Long2ObjectOpenHashMap<>(Math.min(expectedKeys, INITIAL_CAPACITY));
            packed[table] = m;
            arities[table] = key.arity();
        }
        return arities[table] == key.arity() ? m : null;
    }

    /** The chain of {@code key}, or null. */
    VersionChain get(Key key) {
        long p = KeyPacking.pack(key);
        Long2ObjectOpenHashMap<VersionChain> m = table(key, p, false);
        if (m != null) {
            return m.get(p);
        }
        return other.isEmpty() ? null : other.get(key);
    }

    /** Maps {@code key} to {@code c} (absent before). */
    void put(Key key, VersionChain c) {
        long p = KeyPacking.pack(key);
        Long2ObjectOpenHashMap<VersionChain> m = table(key, p, true);
        if (m != null) {
            m.put(p, c);
        } else {
            other.put(key, c);
        }
    }

    /** Removes {@code key}'s chain. */
    void remove(Key key) {
        long p = KeyPacking.pack(key);
        Long2ObjectOpenHashMap<VersionChain> m = table(key, p, false);
        if (m != null) {
            m.remove(p);
        } else {
            other.remove(key);
        }
    }

    /** Number of chains (may be read from another thread: approximate while the owner writes). */
    int size() {
        int n = other.size();
        for (Long2ObjectOpenHashMap<VersionChain> m : packed) {
            n += m == null ? 0 : m.size();
        }
        return n;
    }

    /** Visits every key and its chain (order unspecified; keys of packed tables are rebuilt). */
    void forEach(BiConsumer<Key, VersionChain> visitor) {
        for (int t = 0; t < packed.length; t++) {
            Long2ObjectOpenHashMap<VersionChain> m = packed[t];
            if (m == null) {
                continue;
            }
            for (Long2ObjectMap.Entry<VersionChain> e : Long2ObjectMaps.fastIterable(m)) {
                VersionChain c = e.getValue();
                visitor.accept(c.key != null ? c.key : KeyPacking.unpack(t, arities[t], e.getLongKey()), c);
            }
        }
        other.forEach(visitor);
    }

    /** Visits every chain. */
    void forEachChain(java.util.function.Consumer<VersionChain> visitor) {
        for (Long2ObjectOpenHashMap<VersionChain> m : packed) {
            if (m != null) {
                m.values().forEach(visitor);
            }
        }
        other.values().forEach(visitor);
    }

    void clear() {
        for (Long2ObjectOpenHashMap<VersionChain> m : packed) {
            if (m != null) {
                m.clear();
                m.trim(Math.min(expectedKeys, INITIAL_CAPACITY));
            }
        }
        other.clear();
        other.trim();
    }
}
