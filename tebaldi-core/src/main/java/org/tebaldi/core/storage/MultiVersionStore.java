package org.tebaldi.core.storage;

import it.unimi.dsi.fastutil.longs.Long2ObjectMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectMaps;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;
import java.util.Arrays;
import java.util.function.BiConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.KeyPacking;
import org.tebaldi.core.model.Row;

/**
 * The storage module of one data server (dissertation §4.3): every key's {@link VersionChain}, committed and
 * uncommitted. Concurrency-control metadata lives in the CC parts, not here, so a CC tree can be rebuilt from
 * this store (§5.5.1). Owned by one data-server actor; not thread-safe.
 *
 * <p>Keys are packed into one {@code long} where their parts fit ({@link KeyPacking}) and kept in one
 * open-addressing primitive map per table (fastutil), so a lookup touches no {@code Key} object and the store keeps
 * none per key; other keys go to a map keyed by {@link Key}.
 */
public final class MultiVersionStore {
    @SuppressWarnings("unchecked")
    private Long2ObjectOpenHashMap<VersionChain>[] packed = new Long2ObjectOpenHashMap[0];
    /** The arity of each table's packed keys (fixed by its first key; keys of another arity are not packed). */
    private int[] arities = new int[0];
    private final Object2ObjectOpenHashMap<Key, VersionChain> other = new Object2ObjectOpenHashMap<>();
    private final int expectedKeys;

    public MultiVersionStore() {
        this(1024);
    }

    /** @param expectedKeys capacity hint (keys of the largest table) */
    public MultiVersionStore(int expectedKeys) {
        this.expectedKeys = expectedKeys;
    }

    /** The packed map of {@code key}'s table if the key is packable there ({@code create}: making it), else null. */
    private Long2ObjectOpenHashMap<VersionChain> table(Key key, boolean create) {
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
            m = new Long2ObjectOpenHashMap<>(Math.min(expectedKeys, 1 << 16));
            packed[table] = m;
            arities[table] = key.arity();
        }
        return arities[table] == key.arity() ? m : null;
    }

    /** The chain of {@code key}, created empty if absent. */
    public VersionChain chain(Key key) {
        long p = KeyPacking.pack(key);
        Long2ObjectOpenHashMap<VersionChain> m = p == KeyPacking.UNPACKED ? null : table(key, true);
        if (m == null) {
            return other.computeIfAbsent(key, k -> new VersionChain());
        }
        VersionChain c = m.get(p);
        if (c == null) {
            c = new VersionChain();
            m.put(p, c);
        }
        return c;
    }

    /** The chain of {@code key}, or null if the key was never written. */
    public VersionChain find(Key key) {
        long p = KeyPacking.pack(key);
        Long2ObjectOpenHashMap<VersionChain> m = p == KeyPacking.UNPACKED ? null : table(key, false);
        return m == null ? other.get(key) : m.get(p);
    }

    /** Loads a committed initial version (writer {@link Version#INITIAL_WRITER}), bypassing concurrency control. */
    public void load(Key key, Row row) {
        chain(key).append(Version.initial(row));
    }

    /** Number of keys with a chain (may be read from another thread: approximate while the owner writes). */
    public int keyCount() {
        int n = other.size();
        for (Long2ObjectOpenHashMap<VersionChain> m : packed) {
            n += m == null ? 0 : m.size();
        }
        return n;
    }

    /** Total number of versions held. */
    public long versionCount() {
        long[] n = {0};
        forEach((k, c) -> n[0] += c.size());
        return n[0];
    }

    /** Visits every key and its chain (iteration order unspecified; keys of packed tables are rebuilt). */
    public void forEach(BiConsumer<Key, VersionChain> visitor) {
        for (int t = 0; t < packed.length; t++) {
            Long2ObjectOpenHashMap<VersionChain> m = packed[t];
            if (m == null) {
                continue;
            }
            for (Long2ObjectMap.Entry<VersionChain> e : Long2ObjectMaps.fastIterable(m)) {
                VersionChain c = e.getValue();
                visitor.accept(KeyPacking.unpack(t, arities[t], e.getLongKey()), c);
            }
        }
        other.forEach(visitor);
    }

    /** Writers of the committed versions of {@code key}, oldest first; empty if the key is absent. */
    public long[] versionOrder(Key key) {
        VersionChain c = find(key);
        return c == null ? new long[0] : c.committedOrder();
    }
}
