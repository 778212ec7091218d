package org.tebaldi.core.storage;

import java.util.function.BiConsumer;
import org.tebaldi.core.model.Key;

/**
 * Where settled versions live once no running transaction needs them as objects (docs/performance.md, "Rows off the
 * heap"): one committed, settled {@link Version} per key, kept as bytes ({@link VersionCodec}) outside the Java
 * heap, beneath the {@link MultiVersionStore}'s in-memory chains. Owned by one data-server actor; not thread-safe,
 * except {@link #stats}, which another thread may read (approximate while the owner writes).
 */
public interface BaseStore extends AutoCloseable {
    /**
     * The settled version of {@code key} decoded anew (an object of its own, {@linkplain Version#modified clean}),
     * or null if the store holds none.
     */
    Version get(Key key);

    /**
     * Stores {@code v} as {@code key}'s settled version, replacing any.
     *
     * @throws IllegalArgumentException if {@code v} is not committed and settled
     */
    void put(Key key, Version v);

    /**
     * {@link #put} for a key the store holds no version of — one created in memory since the store last answered
     * {@link #get} with null for it. The store need not look for an older copy (a store with a disk tier skips a
     * lookup on disk per new row). The caller guarantees the absence; the default is {@link #put}.
     *
     * @throws IllegalArgumentException if {@code v} is not committed and settled
     */
    default void insert(Key key, Version v) {
        put(key, v);
    }

    /** Forgets {@code key}'s version; returns whether there was one. */
    boolean remove(Key key);

    /** Whether the store holds a version of {@code key}. */
    boolean contains(Key key);

    /** Keys held. */
    long keyCount();

    /** Visits every key with its version decoded (order unspecified; the versions are copies). */
    void forEach(BiConsumer<Key, Version> visitor);

    /**
     * The CC module was rebuilt (partial restart, dissertation §5.5.1): every version stored so far is read back
     * re-based ({@link Version#rebase}), as the restart re-based every version in memory.
     */
    void rebaseAll();

    /**
     * Background upkeep — compaction, moving cold rows to disk — bounded to about {@code maxRecords} records;
     * returns whether work is left.
     */
    boolean maintain(int maxRecords);

    /** What the store holds and where (thread-safe; approximate while the owner writes). */
    StorageStats stats();

    /** Forgets everything (recovery rebuilds the store from the log); memory is kept for reuse. */
    void clear();

    /** Releases memory and files; the store is unusable after. Idempotent. */
    @Override
    void close();
}
