package org.tebaldi.core.storage;

/**
 * The chains in memory that may go to the base store, least recently looked up first (docs/performance.md, "Rows
 * off the heap"): a doubly linked list through the chains themselves ({@link VersionChain#older}, {@link
 * VersionChain#newer}), so that a lookup moves its chain to the newest end in O(1) and allocates nothing. Because a
 * chain's GC-epoch stamp ({@link VersionChain#touched}) only grows and a chain moves to the newest end whenever it
 * changes, the stamps never decrease from the oldest end to the newest: an eviction pass stops at the first chain a
 * running transaction may still hold, instead of looking at every chain in memory at every GC-epoch tick. Owned by
 * the store's actor; not thread-safe.
 */
final class TouchOrder {
    private VersionChain oldest;
    private VersionChain newest;

    /** The least recently stamped chain, or null if none. */
    VersionChain oldest() {
        return oldest;
    }

    /** The most recently stamped chain, or null if none. */
    VersionChain newest() {
        return newest;
    }

    /** Adds {@code c} (in no list) at the newest end. */
    void append(VersionChain c) {
        c.older = newest;
        c.newer = null;
        if (newest == null) {
            oldest = c;
        } else {
            newest.newer = c;
        }
        newest = c;
    }

    /** Removes {@code c} (in this list). */
    void remove(VersionChain c) {
        if (c.older == null) {
            oldest = c.newer;
        } else {
            c.older.newer = c.newer;
        }
        if (c.newer == null) {
            newest = c.older;
        } else {
            c.newer.older = c.older;
        }
        c.older = null;
        c.newer = null;
    }

    /** Moves {@code c} (in this list) to the newest end. */
    void moveToNewest(VersionChain c) {
        if (c != newest) {
            remove(c);
            append(c);
        }
    }

    /** Empties the list. */
    void clear() {
        VersionChain c = oldest;
        while (c != null) {
            VersionChain next = c.newer;
            c.older = null;
            c.newer = null;
            c = next;
        }
        oldest = null;
        newest = null;
    }
}
