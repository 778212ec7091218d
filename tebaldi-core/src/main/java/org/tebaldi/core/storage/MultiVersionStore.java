package org.tebaldi.core.storage;

import java.util.function.BiConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * The storage module of one data server (dissertation §4.3): every key's {@link VersionChain}, committed and
 * uncommitted. Concurrency-control metadata lives in the CC parts, not here, so a CC tree can be rebuilt from
 * this store (§5.5.1). Owned by one data-server actor; not thread-safe, except {@link #keyCount} and
 * {@link #stats}, which samplers on other threads read (approximate while the owner writes).
 *
 * <p><b>Two layers</b> (docs/performance.md, "Rows off the heap"). With a {@link BaseStore}, chains are Java
 * objects only while running transactions may still need them: a key's settled version — committed, and confirmed
 * by every CC that nothing will be ordered before it (garbage collection, §4.5.3) — lives in the base store as
 * bytes, off the heap, and a lookup ({@link #chain}, {@link #find}) decodes it into a chain of its own again. The
 * data server's GC epochs drive the way back ({@link #advanceClock}, {@link #evict}): a chain whose only version is
 * settled and that no transaction of a running GC epoch looked up goes to the base store (unchanged versions are
 * not written again) and leaves the heap. So the CC parts see the same {@link Version}s through the same
 * {@link VersionChain} API, whether the key was in memory or not; only a chain's identity changes between two
 * transactions that are not concurrent here. A chain made for a key the base store did not hold leaves by
 * {@link BaseStore#insert}, which need not look for an older copy. Without a base store ({@code storage.rows: heap};
 * the off-heap arena is the experiments' default) every chain stays on the heap, as before.
 */
public final class MultiVersionStore implements AutoCloseable {
    private final ChainMap hot;
    private final BaseStore base;
    /** Chains in memory that may go to the base store, least recently looked up first (with a base store only). */
    private final TouchOrder order = new TouchOrder();
    /** The GC epoch lookups stamp chains with. */
    private long clock;
    /** Chains in memory whose key has no record in the base store. */
    private long hotOnly;
    /** Chains built from the base store, and chains moved to it, so far (samplers read them). */
    private volatile long readBack;
    private volatile long evicted;
    private BiConsumer<Key, VersionChain> beforeEviction;

    public MultiVersionStore() {
        this(1024);
    }

    /** @param expectedKeys capacity hint (keys of the largest table) */
    public MultiVersionStore(int expectedKeys) {
        this(expectedKeys, null);
    }

    /**
     * @param expectedKeys capacity hint (keys of the largest table)
     * @param base         where settled versions go (null: every version stays on the heap)
     */
    public MultiVersionStore(int expectedKeys, BaseStore base) {
        this.hot = new ChainMap(expectedKeys);
        this.base = base;
    }

    /** Whether settled versions leave the heap for a base store. */
    public boolean hasBaseStore() {
        return base != null;
    }

    /** The chain of {@code key}, created empty if absent. */
    public VersionChain chain(Key key) {
        VersionChain c = hot.get(key);
        if (c == null) {
            c = materialize(key, true);
        }
        stamp(c);
        return c;
    }

    /** {@code c} was looked up: it carries the current GC epoch, and with a base store moves to the newest end. */
    private void stamp(VersionChain c) {
        if (c.touched != clock) {
            c.touched = clock;
            if (base != null) {
                order.moveToNewest(c);
            }
        }
    }

    /**
     * The chain of {@code key} if it is in memory, else null: unlike {@link #find} it neither reads an evicted chain
     * back from the base store nor stamps it with the GC epoch, so a bookkeeping pass (the history's hand-over)
     * leaves eviction as the transactions left it.
     */
    public VersionChain peek(Key key) {
        return hot.get(key);
    }

    /**
     * Calls {@code listener} with each chain just before it leaves the heap ({@link #evict}), on the owner's thread:
     * the history recorder reports the chain's final versions there, so a key absent from memory has nothing left
     * to report. One listener; null removes it.
     */
    public void beforeEviction(BiConsumer<Key, VersionChain> listener) {
        this.beforeEviction = listener;
    }

    /** The chain of {@code key}, or null if the key was never written. */
    public VersionChain find(Key key) {
        VersionChain c = hot.get(key);
        if (c == null) {
            if (base == null || (c = materialize(key, false)) == null) {
                return null;
            }
        }
        stamp(c);
        return c;
    }

    /** A chain for {@code key} from its base record, or a new empty one if {@code create}; else null. */
    private VersionChain materialize(Key key, boolean create) {
        Version v = base == null ? null : base.get(key);
        if (v == null && !create) {
            return null;
        }
        VersionChain c = new VersionChain();
        if (v != null) {
            c.restore(v);
            c.base = v;
            readBack++;
        } else if (base != null) {
            hotOnly++;
        }
        hot.put(key, c);
        if (base != null) {
            c.key = key;
            c.touched = clock;
            order.append(c);
        }
        return c;
    }

    /**
     * The row of {@code key}'s newest committed version (null if there is none or it deletes the row), without
     * bringing the key into memory — replicated tables, read-only after loading, need no chain.
     */
    public Row latestCommittedRow(Key key) {
        VersionChain c = hot.get(key);
        Version v = c != null ? c.latestCommitted() : base == null ? null : base.get(key);
        return v == null ? null : v.value();
    }

    /** Loads a committed initial version (writer {@link Version#INITIAL_WRITER}), bypassing concurrency control. */
    public void load(Key key, Row row) {
        if (base != null && hot.get(key) == null && !base.contains(key)) {
            base.put(key, Version.initial(row));
        } else {
            chain(key).append(Version.initial(row));
        }
    }

    /**
     * Recovery (dissertation §4.5.4): adds committed, settled {@code v} as {@code key}'s newest version with the order
     * key it has ({@link VersionChain#restore}); straight into the base store when the key is nowhere yet.
     *
     * @throws IllegalArgumentException if its order key is not above the key's newest version's
     */
    public void restore(Key key, Version v) {
        if (base != null && v.committed() && v.settled() && hot.get(key) == null && !base.contains(key)) {
            base.put(key, v);
        } else {
            chain(key).restore(v);
        }
    }

    /** Number of keys with a version (may be read from another thread: approximate while the owner writes). */
    public int keyCount() {
        return (int) Math.min(Integer.MAX_VALUE, base == null ? hot.size() : base.keyCount() + hotOnly);
    }

    /** Keys whose chains are in memory. */
    public int hotKeys() {
        return hot.size();
    }

    /** Total number of versions held (visits every key: for tests and checks after a run). */
    public long versionCount() {
        long[] n = {0};
        forEach((k, c) -> n[0] += c.size());
        return n[0];
    }

    /**
     * Visits every key and its chain (iteration order unspecified; keys of packed tables are rebuilt). A key held
     * only in the base store is visited with a chain of its own that the store does not keep: changes to it are
     * lost. The visitor must not change the store.
     */
    public void forEach(BiConsumer<Key, VersionChain> visitor) {
        hot.forEach(visitor);
        if (base != null) {
            base.forEach((k, v) -> {
                if (hot.get(k) == null) {
                    VersionChain c = new VersionChain();
                    c.restore(v);
                    visitor.accept(k, c);
                }
            });
        }
    }

    /** Writers of the committed versions of {@code key}, oldest first; empty if the key is absent. */
    public long[] versionOrder(Key key) {
        VersionChain c = find(key);
        return c == null ? new long[0] : c.committedOrder();
    }

    /**
     * The GC epoch is now {@code epoch} (dissertation §4.5.3): every lookup from now on stamps its chain with it,
     * so {@link #evict} leaves the chain in memory while a transaction of that epoch may still hold it.
     */
    public void advanceClock(long epoch) {
        clock = epoch;
    }

    /**
     * Moves to the base store the chains that hold nothing but a settled version (or nothing) and were last looked
     * up before GC epoch {@code safeBefore} — every transaction that may hold them finished here — then gives the
     * base store its upkeep. A version unchanged since it was decoded is not written again. The pass walks the chains
     * least recently looked up first ({@link TouchOrder}) and stops at the first one looked up since {@code
     * safeBefore}: the chains running transactions may hold are not looked at. A chain old enough that still holds
     * a version not yet settled (its GC epoch is being collected) is stamped with the current GC epoch and looked at
     * again once that epoch is old enough. No-op without a base store.
     *
     * @param safeBefore the oldest GC epoch with a running transaction here (the current one + 1 if none)
     * @param maxChains  chains looked at most
     * @param maxUpkeep  records the base store's upkeep moves at most ({@link BaseStore#maintain})
     * @return chains that left the heap
     */
    public int evict(long safeBefore, int maxChains, int maxUpkeep) {
        if (base == null) {
            return 0;
        }
        VersionChain last = order.newest();
        VersionChain c = order.oldest();
        int evicted = 0;
        for (int i = 0; i < maxChains && c != null && c.touched < safeBefore; i++) {
            VersionChain next = c == last ? null : c.newer;
            order.remove(c);
            if (!settledAlone(c)) {
                c.touched = clock;
                order.append(c);
            } else {
                leave(c);
                evicted++;
            }
            c = next;
        }
        base.maintain(maxUpkeep);
        this.evicted += evicted;
        return evicted;
    }

    /** {@code c}, out of the touch order, leaves the heap for the base store. */
    private void leave(VersionChain c) {
        if (beforeEviction != null) {
            beforeEviction.accept(c.key, c);
        }
        hot.remove(c.key);
        if (c.size() == 0) {
            if (c.base != null) {
                base.remove(c.key);
            } else {
                hotOnly--;
            }
            return;
        }
        Version v = c.get(0);
        if (c.base == null) {
            base.insert(c.key, v); // materialized without a base version: nothing of the key is stored below
            hotOnly--;
        } else if (v != c.base || v.modified()) {
            base.put(c.key, v);
        }
    }

    private static boolean settledAlone(VersionChain c) {
        if (c.size() == 0) {
            return true;
        }
        Version v = c.get(0);
        return c.size() == 1 && v.committed() && v.settled();
    }

    /**
     * Partial restart (dissertation §5.5.1): every committed version is re-based ({@link Version#rebase}) — those
     * in memory now, those in the base store when they are next read.
     */
    public void rebaseAll() {
        hot.forEachChain(VersionChain::rebaseAll);
        if (base != null) {
            base.rebaseAll();
        }
    }

    /** Forgets every key (recovery rebuilds the store from the log); the base store keeps its memory for reuse. */
    public void clear() {
        hot.clear();
        order.clear();
        hotOnly = 0;
        if (base != null) {
            base.clear();
        }
    }

    /** What the store holds and where (thread-safe; approximate while the owner writes). */
    public StorageStats stats() {
        int h = hot.size();
        if (base == null) {
            return new StorageStats(h, h, 0, 0, 0, 0, 0, 0);
        }
        StorageStats b = base.stats();
        return new StorageStats(keyCount(), h, b.offHeapBytes(), b.liveBytes(), b.diskKeys(), b.diskBytes(),
                readBack, evicted);
    }

    /** Releases the base store's memory and files (after the run, once nothing reads the store). Idempotent. */
    @Override
    public void close() {
        if (base != null) {
            base.close();
        }
    }
}
