package org.tebaldi.core.cc.lock;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.cc.DsTxn;

/**
 * The waits-for graph of one lock table ({@link DeadlockPolicy#DETECT}; Bernstein, Hadzilacos and Goodman 1987,
 * §3.4 "deadlock detection"): a parked request waits for the holders it conflicts with and for the conflicting
 * requests queued before it (the queue is FIFO, {@link LockTable}). Only a new parked request adds edges (a grant
 * turns a waits-for-an-earlier-waiter edge into a waits-for-a-holder edge to the same transaction; releases remove
 * edges), and all of them touch the new request's transaction, so a cycle, if one forms, runs through it and is
 * found when it parks. Owned by the lock table's data-server actor.
 */
final class WaitsFor {
    /** Per transaction with a parked request here, its lock state at this table. */
    private final IdentityHashMap<DsTxn, TxnLocks> parked = new IdentityHashMap<>();

    /** How the table decides conflicts. */
    interface Compatibility {
        boolean compatible(DsTxn a, LockMode ma, DsTxn b, LockMode mb);
    }

    void parked(DsTxn t, TxnLocks mine) {
        parked.put(t, mine);
    }

    /** {@code t}'s parked requests changed: forgets it once it has none. */
    void unparked(DsTxn t, TxnLocks mine) {
        if (mine.waiting.isEmpty()) {
            parked.remove(t);
        }
    }

    /**
     * The cycle through {@code t} (parked, its requests queued) — {@code t}, then each transaction the previous one
     * waits for, back to {@code t} excluded — or null if its waits close none.
     */
    List<DsTxn> cycleThrough(DsTxn t, Compatibility c) {
        IdentityHashMap<DsTxn, DsTxn> cameFrom = new IdentityHashMap<>();
        ArrayDeque<DsTxn> todo = new ArrayDeque<>();
        todo.add(t);
        cameFrom.put(t, t);
        while (!todo.isEmpty()) {
            DsTxn u = todo.poll();
            TxnLocks mine = parked.get(u);
            if (mine == null) {
                continue;
            }
            for (LockState.Waiter w : mine.waiting) {
                for (DsTxn v : blockers(w, c)) {
                    if (v == t) {
                        return path(cameFrom, u, t);
                    }
                    if (!cameFrom.containsKey(v)) {
                        cameFrom.put(v, u);
                        todo.add(v);
                    }
                }
            }
        }
        return null;
    }

    private static List<DsTxn> path(IdentityHashMap<DsTxn, DsTxn> cameFrom, DsTxn last, DsTxn t) {
        ArrayDeque<DsTxn> p = new ArrayDeque<>();
        for (DsTxn u = last; u != t; u = cameFrom.get(u)) {
            p.addFirst(u);
        }
        p.addFirst(t);
        return List.copyOf(p);
    }

    /** Whom the parked request {@code w} waits for: conflicting holders and conflicting requests queued before it. */
    private static Set<DsTxn> blockers(LockState.Waiter w, Compatibility c) {
        Set<DsTxn> b = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (LockState.Holder h : w.lock.holders) {
            if (!c.compatible(w.txn, w.mode, h.txn, h.mode)) {
                b.add(h.txn);
            }
        }
        for (LockState.Waiter e : w.lock.waiters) {
            if (e == w) {
                break;
            }
            if (!c.compatible(w.txn, w.mode, e.txn, e.mode)) {
                b.add(e.txn);
            }
        }
        return b;
    }
}
