package org.tebaldi.cc.tso;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Key;

/**
 * Promises held by one TSO node at one data server (dissertation §4.4.4, after Faleiro et al.): which transaction
 * promised to write which key, and the readers parked until the promised write happens or the promiser ends.
 */
final class Promises {
    /** One unfulfilled promise and the readers waiting for it. */
    static final class Promise {
        final long txn;
        final long ts;
        final List<Runnable> waiters = new ArrayList<>(1);

        Promise(long txn, long ts) {
            this.txn = txn;
            this.ts = ts;
        }
    }

    private final HashMap<Key, List<Promise>> byKey = new HashMap<>();
    private final HashMap<Long, List<Key>> byTxn = new HashMap<>();

    void add(long txn, long ts, Key[] keys) {
        for (Key k : keys) {
            byKey.computeIfAbsent(k, x -> new ArrayList<>(1)).add(new Promise(txn, ts));
            byTxn.computeIfAbsent(txn, x -> new ArrayList<>(2)).add(k);
        }
    }

    /** The unfulfilled promise on {@code key} with the largest timestamp below {@code ts}, or null. */
    Promise blocking(Key key, long ts, long reader) {
        List<Promise> l = byKey.get(key);
        Promise best = null;
        if (l != null) {
            for (Promise p : l) {
                if (p.txn != reader && p.ts < ts && (best == null || p.ts > best.ts)) {
                    best = p;
                }
            }
        }
        return best;
    }

    /** {@code txn} wrote {@code key}: its promise there is fulfilled; returns the readers to wake. */
    List<Runnable> fulfil(long txn, Key key) {
        List<Promise> l = byKey.get(key);
        List<Runnable> wake = new ArrayList<>(0);
        if (l != null) {
            for (Iterator<Promise> it = l.iterator(); it.hasNext(); ) {
                Promise p = it.next();
                if (p.txn == txn) {
                    wake.addAll(p.waiters);
                    it.remove();
                }
            }
            if (l.isEmpty()) {
                byKey.remove(key);
            }
        }
        return wake;
    }

    /** {@code txn} ended: all its promises lapse; returns the readers to wake. */
    List<Runnable> end(long txn) {
        List<Key> keys = byTxn.remove(txn);
        List<Runnable> wake = new ArrayList<>(0);
        if (keys != null) {
            for (Key k : keys) {
                wake.addAll(fulfil(txn, k));
            }
        }
        return wake;
    }

    /** Keys with promises (for tests). */
    int size() {
        int n = 0;
        for (Map.Entry<Key, List<Promise>> e : byKey.entrySet()) {
            n += e.getValue().size();
        }
        return n;
    }
}
