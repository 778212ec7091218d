package org.tebaldi.core.storage;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import org.tebaldi.core.model.Key;

/**
 * The versions of one key, in version order (oldest first): committed and uncommitted. Mechanisms decide where
 * a new version goes (append by default; TSO may insert by timestamp) and which one a read returns (the
 * read-version chain, dissertation §4.3.1, Fig 4.5). Not thread-safe.
 *
 * <p>Most keys hold one version, so a chain keeps a single version in a field and an array only while it holds
 * more (a store of millions of keys then has two objects per key fewer for the garbage collector to trace).
 */
public final class VersionChain {
    /**
     * Distance between the order keys of consecutive appended versions; an insertion takes the midpoint of its
     * neighbours' keys, so about 20 insertions at the same place fit before {@link #insert} refuses one.
     */
    public static final long ORDER_GAP = 1L << 20;

    /** The only version while {@link #n} is 1 (else null). */
    private Version one;
    /** The versions while {@link #n} is 2 or more (slots from {@code n} on are null); else null. */
    private Version[] many;
    private int n;
    private boolean written;
    /**
     * Kept by a {@link MultiVersionStore} with a base store (null otherwise): the chain's key, the GC epoch of its
     * last lookup (or of the eviction pass that put it back), the version decoded from the base store (null if the key had none there), and its neighbours in
     * the store's {@link TouchOrder}.
     */
    Key key;
    long touched;
    Version base;
    VersionChain older;
    VersionChain newer;

    /** Number of versions, committed or not. */
    public int size() {
        return n;
    }

    /**
     * The i-th version in version order (0 = oldest).
     *
     * @throws IndexOutOfBoundsException if {@code i} is not in [0, size)
     */
    public Version get(int i) {
        if (i < 0 || i >= n) {
            throw new IndexOutOfBoundsException("version " + i + " of " + n);
        }
        return n == 1 ? one : many[i];
    }

    /** Read-only view in version order (live). */
    public List<Version> versions() {
        return new AbstractList<>() {
            @Override
            public Version get(int i) {
                return VersionChain.this.get(i);
            }

            @Override
            public int size() {
                return n;
            }
        };
    }

    /** The newest version, or null if none. */
    public Version latest() {
        return n == 0 ? null : n == 1 ? one : many[n - 1];
    }

    /** Inserts {@code v} at position {@code i} (0..size). */
    private void add(int i, Version v) {
        if (n == 0) {
            one = v;
        } else if (n == 1) {
            many = new Version[4];
            many[i == 0 ? 1 : 0] = one;
            many[i] = v;
            one = null;
        } else {
            if (n == many.length) {
                many = Arrays.copyOf(many, n * 2);
            }
            System.arraycopy(many, i, many, i + 1, n - i);
            many[i] = v;
        }
        n++;
    }

    /** Removes the version at position {@code at}. */
    private void removeAt(int at) {
        removeRange(at, at + 1);
    }

    /** Removes the versions at positions [from, to). */
    private void removeRange(int from, int to) {
        int k = to - from;
        if (k <= 0) {
            return;
        }
        if (n == 1) {
            one = null;
            n = 0;
            return;
        }
        System.arraycopy(many, to, many, from, n - to);
        Arrays.fill(many, n - k, n, null);
        n -= k;
        if (n == 1) {
            one = many[0];
            many = null;
        } else if (n == 0) {
            many = null;
        }
    }

    /** The newest committed version, or null if none. */
    public Version latestCommitted() {
        for (int i = n - 1; i >= 0; i--) {
            Version v = get(i);
            if (v.committed()) {
                return v;
            }
        }
        return null;
    }

    /** The newest version satisfying {@code p}, or null. */
    public Version latestMatching(Predicate<Version> p) {
        for (int i = n - 1; i >= 0; i--) {
            Version v = get(i);
            if (p.test(v)) {
                return v;
            }
        }
        return null;
    }

    /** The version written by {@code writer}, or null (a transaction has at most one version per key). */
    public Version versionBy(long writer) {
        for (int i = n - 1; i >= 0; i--) {
            Version v = get(i);
            if (v.writer() == writer) {
                return v;
            }
        }
        return null;
    }

    /** Position of {@code v} in version order, or -1. */
    public int indexOf(Version v) {
        for (int i = n - 1; i >= 0; i--) {
            if (get(i) == v) {
                return i;
            }
        }
        return -1;
    }

    /** Adds {@code v} as the newest version, with an order key above every other version's. */
    public void append(Version v) {
        Version last = latest();
        v.setOrderKey(last == null ? 0 : last.orderKey() + ORDER_GAP);
        add(n, v);
    }

    /**
     * Inserts {@code v} at position {@code index} of the version order, with an order key between its neighbours'.
     *
     * @return false (and nothing changes) if the neighbours' keys leave no room — after about 20 insertions at one
     *         place; the caller aborts the writer
     */
    public boolean insert(int index, Version v) {
        if (index >= n) {
            append(v);
            return true;
        }
        long hi = get(index).orderKey();
        long lo = index == 0 ? hi - 2 * ORDER_GAP : get(index - 1).orderKey();
        if (hi - lo < 2) {
            return false;
        }
        v.setOrderKey(lo + (hi - lo) / 2);
        add(index, v);
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
        add(n, v);
    }

    /** Removes {@code v} (its writer aborted); returns whether it was present. */
    public boolean remove(Version v) {
        int i = indexOf(v);
        if (i < 0) {
            return false;
        }
        removeAt(i);
        return true;
    }

    /** Removes the versions before position {@code index} (garbage collection); returns how many. */
    public int pruneBefore(int index) {
        if (index <= 0) {
            return 0;
        }
        int k = Math.min(index, n);
        removeRange(0, k);
        return k;
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
        for (int i = n - 1; i >= 0; i--) {
            Version v = get(i);
            if (v.settled() && v.committed()) {
                s = i;
                break;
            }
        }
        int end = 0;
        while (end < s && get(end).committed()) {
            end++;
        }
        if (end == 0) {
            return 0;
        }
        if (removed != null) {
            for (int i = 0; i < end; i++) {
                removed.accept(get(i).writer());
            }
        }
        removeRange(0, end);
        return end;
    }

    /** Writers of the committed versions, oldest first (the key's final version order, for verification). */
    public long[] committedOrder() {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += get(i).committed() ? 1 : 0;
        }
        long[] out = new long[c];
        for (int i = 0, j = 0; i < n; i++) {
            if (get(i).committed()) {
                out[j++] = get(i).writer();
            }
        }
        return out;
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
        for (int i = 0; i < n; i++) {
            Version v = get(i);
            if (v.committed()) {
                v.rebase();
            }
        }
        written = false;
    }
}
