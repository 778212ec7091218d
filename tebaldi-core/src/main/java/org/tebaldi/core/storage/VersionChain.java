package org.tebaldi.core.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.Predicate;

/**
 * The versions of one key, in version order (oldest first): committed and uncommitted. Mechanisms decide where
 * a new version goes (append by default; TSO may insert by timestamp) and which one a read returns (the
 * read-version chain, dissertation §4.3.1, Fig 4.5). Not thread-safe.
 */
public final class VersionChain {
    /**
     * Distance between the order keys of consecutive appended versions; an insertion takes the midpoint of its
     * neighbours' keys, so about 20 insertions at the same place fit before {@link #insert} refuses one.
     */
    public static final long ORDER_GAP = 1L << 20;

    private final ArrayList<Version> versions = new ArrayList<>(2);
    private boolean written;

    /** Number of versions, committed or not. */
    public int size() {
        return versions.size();
    }

    /** The i-th version in version order (0 = oldest). */
    public Version get(int i) {
        return versions.get(i);
    }

    /** Read-only view in version order. */
    public List<Version> versions() {
        return Collections.unmodifiableList(versions);
    }

    /** The newest version, or null if none. */
    public Version latest() {
        return versions.isEmpty() ? null : versions.get(versions.size() - 1);
    }

    /** The newest committed version, or null if none. */
    public Version latestCommitted() {
        for (int i = versions.size() - 1; i >= 0; i--) {
            Version v = versions.get(i);
            if (v.committed()) {
                return v;
            }
        }
        return null;
    }

    /** The newest version satisfying {@code p}, or null. */
    public Version latestMatching(Predicate<Version> p) {
        for (int i = versions.size() - 1; i >= 0; i--) {
            Version v = versions.get(i);
            if (p.test(v)) {
                return v;
            }
        }
        return null;
    }

    /** The version written by {@code writer}, or null (a transaction has at most one version per key). */
    public Version versionBy(long writer) {
        for (int i = versions.size() - 1; i >= 0; i--) {
            Version v = versions.get(i);
            if (v.writer() == writer) {
                return v;
            }
        }
        return null;
    }

    /** Position of {@code v} in version order, or -1. */
    public int indexOf(Version v) {
        for (int i = versions.size() - 1; i >= 0; i--) {
            if (versions.get(i) == v) {
                return i;
            }
        }
        return -1;
    }

    /** Adds {@code v} as the newest version, with an order key above every other version's. */
    public void append(Version v) {
        Version last = latest();
        v.setOrderKey(last == null ? 0 : last.orderKey() + ORDER_GAP);
        versions.add(v);
    }

    /**
     * Inserts {@code v} at position {@code index} of the version order, with an order key between its neighbours'.
     *
     * @return false (and nothing changes) if the neighbours' keys leave no room — after about 20 insertions at one
     *         place; the caller aborts the writer
     */
    public boolean insert(int index, Version v) {
        if (index >= versions.size()) {
            append(v);
            return true;
        }
        long hi = versions.get(index).orderKey();
        long lo = index == 0 ? hi - 2 * ORDER_GAP : versions.get(index - 1).orderKey();
        if (hi - lo < 2) {
            return false;
        }
        v.setOrderKey(lo + (hi - lo) / 2);
        versions.add(index, v);
        return true;
    }

    /**
     * Adds a version rebuilt by recovery with the order key it had (kept: later versions order after it).
     *
     * @throws IllegalArgumentException if its key is not above the newest version's
     */
    public void restore(Version v) {
        Version last = latest();
        if (last != null && last.orderKey() >= v.orderKey()) {
            throw new IllegalArgumentException("restored version " + v + " (order key " + v.orderKey()
                    + ") is not newer than " + last + " (" + last.orderKey() + ")");
        }
        versions.add(v);
    }

    /** Removes {@code v} (its writer aborted); returns whether it was present. */
    public boolean remove(Version v) {
        int i = indexOf(v);
        if (i < 0) {
            return false;
        }
        versions.remove(i);
        return true;
    }

    /** Removes the versions before position {@code index} (garbage collection); returns how many. */
    public int pruneBefore(int index) {
        if (index <= 0) {
            return 0;
        }
        versions.subList(0, index).clear();
        return index;
    }

    /**
     * Garbage collection (dissertation §4.5.3): removes the committed versions older than the newest
     * {@linkplain Version#settled() settled} version — no transaction can read them any more. Stops at the oldest
     * uncommitted version (its writer may still commit between them), so the removed writers are always the oldest
     * of the key's committed version order.
     *
     * @param removed gets each removed version's writer, oldest first (may be null)
     * @return how many versions were removed
     */
    public int pruneSettled(LongConsumer removed) {
        int s = -1;
        for (int i = versions.size() - 1; i >= 0; i--) {
            Version v = versions.get(i);
            if (v.settled() && v.committed()) {
                s = i;
                break;
            }
        }
        int end = 0;
        while (end < s && versions.get(end).committed()) {
            end++;
        }
        if (end == 0) {
            return 0;
        }
        if (removed != null) {
            for (int i = 0; i < end; i++) {
                removed.accept(versions.get(i).writer());
            }
        }
        versions.subList(0, end).clear();
        return end;
    }

    /** Writers of the committed versions, oldest first (the key's final version order, for verification). */
    public long[] committedOrder() {
        return versions.stream().filter(Version::committed).mapToLong(Version::writer).toArray();
    }

    /**
     * Marks the chain as holding a version written through concurrency control (not only the initial load) since
     * the last {@link #rebaseAll}; true if it was not marked yet (the caller then remembers the chain).
     */
    public boolean markWritten() {
        if (written) {
            return false;
        }
        written = true;
        return true;
    }

    /**
     * Re-bases every committed version ({@link Version#rebase}) and clears the mark: the chain's CC metadata as if
     * a virtual recovery transaction beneath the root wrote it (dissertation §4.5.4).
     */
    public void rebaseAll() {
        for (Version v : versions) {
            if (v.committed()) {
                v.rebase();
            }
        }
        written = false;
    }
}
