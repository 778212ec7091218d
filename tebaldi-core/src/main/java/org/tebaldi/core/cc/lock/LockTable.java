package org.tebaldi.core.cc.lock;

import java.util.HashMap;
import org.tebaldi.core.cc.BlockingSink;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.core.cc.lock.LockState;

/**
 * Nexus locks of one lock-based CC node at one data server (dissertation §3.3.2, §4.4.1, §4.4.2): S/X locks;
 * locks of transactions in the same group at this node (the same child subtree; at a leaf, the same
 * transaction) never conflict, leaving their ordering to the child. Conflicting requests park their
 * continuation in a FIFO queue; deadlocks are broken by a lock-wait timeout, by wait-die, or avoided by no-wait (a
 * conflicting request aborts at once; {@link DeadlockPolicy}). 2PL releases
 * everything at commit; RP releases the locks of a step (the lock's tag) when the transaction moves past it.
 * Shared infrastructure for lock-based mechanisms; owned by one data-server actor.
 */
public final class LockTable {
    private CcNode node;
    private final DsServices services;
    private final long timeoutMicros;
    private final DeadlockPolicy policy;
    private final HashMap<Key, LockState> locks = new HashMap<>();
    /** The waits-for graph, kept under {@link DeadlockPolicy#DETECT} only (else null). */
    private final WaitsFor waitsFor;

    /**
     * @param node          the CC node whose group relation decides compatibility
     * @param timeoutMicros lock-wait timeout, µs
     * @param waitDie       abort a younger requester at once when it conflicts with an older holder
     */
    public LockTable(CcNode node, DsServices services, long timeoutMicros, boolean waitDie) {
        this(node, services, timeoutMicros, waitDie ? DeadlockPolicy.WAIT_DIE : DeadlockPolicy.TIMEOUT);
    }

    /**
     * @param node          the CC node whose group relation decides compatibility
     * @param timeoutMicros lock-wait timeout, µs
     * @param policy        how deadlocks are broken or avoided
     */
    public LockTable(CcNode node, DsServices services, long timeoutMicros, DeadlockPolicy policy) {
        this.node = node;
        this.services = services;
        this.timeoutMicros = timeoutMicros;
        this.policy = policy;
        this.waitsFor = policy == DeadlockPolicy.DETECT ? new WaitsFor() : null;
    }

    /** Number of keys with holders or waiters (for tests and leak checks). */
    public int size() {
        return locks.size();
    }

    /** Whether a request of {@code a} in mode {@code ma} is compatible with {@code b} holding {@code mb}. */
    public boolean compatible(DsTxn a, LockMode ma, DsTxn b, LockMode mb) {
        return a == b || (ma == LockMode.S && mb == LockMode.S)
                || node.sameGroup(a.id(), a.leaf(), a.instance(), b.id(), b.leaf(), b.instance());
    }

    private DsTxn firstConflict(LockState ls, DsTxn t, LockMode m) {
        for (LockState.Holder h : ls.holders) {
            if (!compatible(t, m, h.txn, h.mode)) {
                return h.txn;
            }
        }
        return null;
    }

    private boolean groupHolds(LockState ls, DsTxn t) {
        for (LockState.Holder h : ls.holders) {
            if (h.txn == t || node.sameGroup(t.id(), t.leaf(), t.instance(), h.txn.id(), h.txn.leaf(), h.txn.instance())) {
                return true;
            }
        }
        return false;
    }

    /** Requests a lock with tag 0; proceeds, parks or aborts through {@code k}. */
    public void acquire(DsTxn t, TxnLocks mine, Key key, LockMode mode, Continuation k) {
        acquire(t, mine, key, mode, 0, k);
    }

    /** Requests a lock tagged {@code tag} (kept at the highest tag when re-acquired); proceeds, parks or aborts. */
    public void acquire(DsTxn t, TxnLocks mine, Key key, LockMode mode, int tag, Continuation k) {
        LockState ls = locks.computeIfAbsent(key, LockState::new);
        LockState.Holder h = ls.holder(t);
        if (h != null && (h.mode == LockMode.X || mode == LockMode.S)) {
            k.proceed();
            return;
        }
        DsTxn blocker = firstConflict(ls, t, mode);
        if (blocker == null && (ls.waiters.isEmpty() || groupHolds(ls, t))) {
            grant(ls, t, mine, mode, tag);
            k.proceed();
            return;
        }
        if (blocker == null) {
            blocker = ls.waiters.get(0).txn;
        }
        if (policy == DeadlockPolicy.NO_WAIT) {
            k.abort(AbortReason.conflict("no-wait: " + TxnIds.format(t.id()) + " conflicts with "
                    + TxnIds.format(blocker.id()) + " on " + key + " at " + node.mechanism() + " node " + node.id()));
            return;
        }
        if (policy == DeadlockPolicy.WAIT_DIE && !olderThanConflicting(ls, t, mode)) {
            k.abort(AbortReason.conflict("wait-die: " + TxnIds.format(t.id()) + " is younger than a holder of "
                    + key + " at " + node.mechanism() + " node " + node.id()));
            return;
        }
        LockState.Waiter w = new LockState.Waiter(t, mode, tag, mine, k, ls, services.nowMicros(), blocker);
        if (h != null) {
            ls.waiters.add(0, w); // upgrades go first
        } else {
            ls.waiters.add(w);
        }
        mine.waiting.add(w);
        if (waitsFor != null && closesCycle(w, mine, key)) {
            return;
        }
        w.timer = services.schedule(timeoutMicros, () -> timeout(w, mine));
    }

    /**
     * {@link DeadlockPolicy#DETECT}: whether the just-queued request {@code w} closes a cycle of waits here; if so it
     * is taken back out of the queue (the table is as before the request) and its transaction aborts.
     */
    private boolean closesCycle(LockState.Waiter w, TxnLocks mine, Key key) {
        waitsFor.parked(w.txn, mine);
        java.util.List<DsTxn> cycle = waitsFor.cycleThrough(w.txn, this::compatible);
        if (cycle == null) {
            return false;
        }
        w.lock.waiters.remove(w);
        mine.waiting.remove(w);
        waitsFor.unparked(w.txn, mine);
        StringBuilder names = new StringBuilder();
        for (DsTxn c : cycle) {
            names.append(TxnIds.format(c.id())).append(" -> ");
        }
        w.k.abort(AbortReason.conflict("deadlock: " + names + TxnIds.format(w.txn.id())
                + " wait for each other's locks (" + key + ") at " + node.mechanism() + " node " + node.id()));
        return true;
    }

    private boolean olderThanConflicting(LockState ls, DsTxn t, LockMode m) {
        for (LockState.Holder h : ls.holders) {
            if (!compatible(t, m, h.txn, h.mode) && !older(t, h.txn)) {
                return false;
            }
        }
        return true;
    }

    private static boolean older(DsTxn a, DsTxn b) {
        return a.priority() < b.priority() || (a.priority() == b.priority() && a.id() < b.id());
    }

    private void grant(LockState ls, DsTxn t, TxnLocks mine, LockMode mode, int tag) {
        LockState.Holder h = ls.holder(t);
        if (h != null) {
            h.mode = h.mode.max(mode);
            h.tag = Math.max(h.tag, tag);
        } else {
            ls.holders.add(new LockState.Holder(t, mode, tag));
            mine.held.add(ls);
        }
    }

    private void timeout(LockState.Waiter w, TxnLocks mine) {
        org.tebaldi.core.runtime.cost.HandlerUnits.kind("lock-timeout"); // charged as such (docs/simulation.md)
        if (!w.lock.waiters.remove(w)) {
            return;
        }
        mine.waiting.remove(w);
        if (waitsFor != null) {
            waitsFor.unparked(w.txn, mine);
        }
        report(w);
        promote(w.lock);
        w.k.abort(AbortReason.conflict("lock wait timeout on " + w.lock.key + " after "
                + timeoutMicros / 1000 + " ms at " + node.mechanism() + " node " + node.id()));
    }

    /** Grants queued requests that no holder and no earlier waiter conflicts with. */
    private void promote(LockState ls) {
        for (int i = 0; i < ls.waiters.size(); ) {
            LockState.Waiter w = ls.waiters.get(i);
            boolean ok = firstConflict(ls, w.txn, w.mode) == null;
            for (int j = 0; ok && j < i; j++) {
                LockState.Waiter e = ls.waiters.get(j);
                ok = compatible(w.txn, w.mode, e.txn, e.mode);
            }
            if (!ok) {
                i++;
                continue;
            }
            ls.waiters.remove(i);
            w.timer.cancel();
            w.mine.waiting.remove(w);
            if (waitsFor != null) {
                waitsFor.unparked(w.txn, w.mine);
            }
            grant(ls, w.txn, w.mine, w.mode, w.tag);
            report(w);
            w.k.proceed();
        }
        if (ls.idle()) {
            locks.remove(ls.key);
        }
    }

    private void report(LockState.Waiter w) {
        BlockingSink sink = services.blocking();
        if (sink != null) {
            sink.blocked(w.txn.id(), w.txn.typeId(), w.blocker.id(), w.blocker.typeId(), w.sinceMicros,
                    services.nowMicros());
        }
    }

    /**
     * Releases {@code t}'s locks tagged {@code <= maxTag} (RP: the steps it moved past), granting what becomes
     * grantable; parked requests stay.
     *
     * @return the keys released, in acquisition order
     */
    public java.util.List<Key> releaseUpTo(DsTxn t, TxnLocks mine, int maxTag) {
        java.util.List<Key> released = new java.util.ArrayList<>(0);
        for (java.util.Iterator<LockState> it = mine.held.iterator(); it.hasNext(); ) {
            LockState ls = it.next();
            LockState.Holder h = ls.holder(t);
            if (h != null && h.tag <= maxTag) {
                ls.removeHolder(t);
                it.remove();
                released.add(ls.key);
                promote(ls);
            }
        }
        return released;
    }

    /** Drops {@code t}'s parked requests and releases all its locks, granting what becomes grantable. */
    public void releaseAll(DsTxn t, TxnLocks mine) {
        for (LockState.Waiter w : mine.waiting) {
            w.lock.waiters.remove(w);
            w.timer.cancel();
            promote(w.lock);
        }
        mine.waiting.clear();
        if (waitsFor != null) {
            waitsFor.unparked(t, mine);
        }
        for (LockState ls : mine.held) {
            ls.removeHolder(t);
            promote(ls);
        }
        mine.held.clear();
    }

    /**
     * The transaction holding {@code key} in X mode at this node, or null (e.g. a lease renewal fails on a
     * tuple another transaction has locked for writing).
     */
    public DsTxn exclusiveHolder(Key key) {
        LockState ls = locks.get(key);
        if (ls != null) {
            for (LockState.Holder h : ls.holders) {
                if (h.mode == LockMode.X) {
                    return h.txn;
                }
            }
        }
        return null;
    }

    /** Switches to the same node of an updated tree (online update, see {@code DsPart#rebind}). */
    public void rebind(CcNode n) {
        this.node = n;
    }
}
