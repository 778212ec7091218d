package org.tebaldi.core.storage;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * The storage module of one data server (dissertation §4.3): every key's {@link VersionChain}, committed and
 * uncommitted. Concurrency-control metadata lives in the CC parts, not here, so a CC tree can be rebuilt from
 * this store (§5.5.1). Owned by one data-server actor; not thread-safe.
 */
public final class MultiVersionStore {
    private final HashMap<Key, VersionChain> chains;

    public MultiVersionStore() {
        this(1024);
    }

    /** @param expectedKeys capacity hint */
    public MultiVersionStore(int expectedKeys) {
        chains = new HashMap<>(Math.max(16, (int) (expectedKeys / 0.75f) + 1));
    }

    /** The chain of {@code key}, created empty if absent. */
    public VersionChain chain(Key key) {
        VersionChain c = chains.get(key);
        if (c == null) {
            c = new VersionChain();
            chains.put(key, c);
        }
        return c;
    }

    /** The chain of {@code key}, or null if the key was never written. */
    public VersionChain find(Key key) {
        return chains.get(key);
    }

    /** Loads a committed initial version (writer {@link Version#INITIAL_WRITER}), bypassing concurrency control. */
    public void load(Key key, Row row) {
        chain(key).append(Version.initial(row));
    }

    /** Number of keys with a chain. */
    public int keyCount() {
        return chains.size();
    }

    /** Total number of versions held. */
    public long versionCount() {
        long n = 0;
        for (VersionChain c : chains.values()) {
            n += c.size();
        }
        return n;
    }

    /** Visits every key and its chain (iteration order unspecified). */
    public void forEach(BiConsumer<Key, VersionChain> visitor) {
        for (Map.Entry<Key, VersionChain> e : chains.entrySet()) {
            visitor.accept(e.getKey(), e.getValue());
        }
    }

    /** Writers of the committed versions of {@code key}, oldest first; empty if the key is absent. */
    public long[] versionOrder(Key key) {
        VersionChain c = chains.get(key);
        return c == null ? new long[0] : c.committedOrder();
    }
}
