package org.tebaldi.core.cc.lease;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.model.Key;

/**
 * The live readers of each key at one lease-based leaf under a parent: a lease-based mechanism lets a reader go
 * ahead of a concurrent writer of the version it read (the reader takes the older version and a smaller logical
 * timestamp), so the writer is ordered after the reader while both run. A parent that adopts its child's order
 * must hear of that order before the writer commits ({@code DsPart}'s contract): the writer depends on every live
 * reader of the key. Owned by one data-server actor.
 */
public final class LiveReaders {
    private final HashMap<Key, List<DsTxn>> readers = new HashMap<>();

    /** {@code t} read a committed version (or the absence) of {@code key}. */
    public void add(Key key, DsTxn t) {
        List<DsTxn> l = readers.computeIfAbsent(key, k -> new ArrayList<>(2));
        if (!l.contains(t)) {
            l.add(t);
        }
    }

    /** The readers of {@code key} other than {@code except} that have not finished. */
    public List<DsTxn> live(Key key, DsTxn except) {
        List<DsTxn> l = readers.get(key);
        if (l == null) {
            return List.of();
        }
        List<DsTxn> out = new ArrayList<>(l.size());
        for (DsTxn r : l) {
            if (r != except && !r.finished()) {
                out.add(r);
            }
        }
        return out;
    }

    /** {@code t} ended: it no longer reads {@code key}. */
    public void remove(Key key, DsTxn t) {
        List<DsTxn> l = readers.get(key);
        if (l != null) {
            l.remove(t);
            if (l.isEmpty()) {
                readers.remove(key);
            }
        }
    }

    /** Number of keys with readers (for tests and leak checks). */
    public int size() {
        return readers.size();
    }
}
