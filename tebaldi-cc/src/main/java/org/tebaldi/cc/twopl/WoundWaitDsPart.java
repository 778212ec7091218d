package org.tebaldi.cc.twopl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.lock.DeadlockPolicy;
import org.tebaldi.core.cc.lock.LockMode;
import org.tebaldi.core.cc.lock.LockTable;
import org.tebaldi.core.cc.lock.TxnLocks;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.TxnIds;

/**
 * DS part of 2PL under {@code deadlock: wound-wait} (Rosenkrantz, Stearns and Lewis, "System level concurrency
 * control for distributed database systems", TODS 1978): a requester older than a conflicting holder (or an
 * earlier conflicting waiter) <em>wounds</em> it — the younger transaction aborts — and waits for its locks; a
 * younger requester waits. Every wait then goes from a younger to an older transaction or to a wounded one, so no
 * deadlock lasts: the lock-wait timeout stays only as the backstop for waits across mechanisms.
 *
 * <p>Locking, the read rule and validation are plain 2PL ({@link TwoPlDsPart}); this part adds who holds and who
 * waits for each key here, to find the younger transactions to wound. A wound dooms the transaction at this server
 * ({@link DsTxn#doom}: its next operation or validation here fails), aborts a request it parked here, and goes
 * to its coordinator ({@link WoundWaitTcPart}), which passes it to the other data servers it took part at. A
 * transaction that already voted here is past wounding: its doom is ignored (the classic rule: a wound on a
 * committing transaction has no effect). Age is {@link DsTxn#priority} (the first attempt's begin, kept across
 * retries, so a wounded transaction grows old enough to win), ties broken by id. Data-server actor only.
 */
final class WoundWaitDsPart implements DsPart<WoundWaitDsPart.State> {
    /** One transaction's locks here, its modes, and the requests it parked here. */
    static final class State {
        final DsTxn txn;
        final TxnLocks locks = new TxnLocks();
        final HashMap<Key, LockMode> held = new HashMap<>(4);
        final ArrayList<Request> parked = new ArrayList<>(1);
        String wound;

        State(DsTxn txn) {
            this.txn = txn;
        }
    }

    private CcNode node;
    private final DsServices services;
    private final TwoPlDsPart plain;
    private final LockTable locks;
    private final HashMap<Key, ArrayList<State>> holders = new HashMap<>();
    private final HashMap<Key, ArrayList<Request>> waiters = new HashMap<>();
    private final AtomicLong wounds = new AtomicLong();

    /** @param timeoutMicros lock-wait timeout, µs (the backstop) */
    WoundWaitDsPart(CcNode node, DsServices services, long timeoutMicros) {
        this.node = node;
        this.services = services;
        this.plain = new TwoPlDsPart(node, services, timeoutMicros, DeadlockPolicy.TIMEOUT);
        this.locks = plain.locks();
    }

    @Override
    public State newState(DsTxn t) {
        return new State(t);
    }

    @Override
    public void execute(DsTxn t, State st, OpContext op, Continuation k) {
        if (st.wound != null) {
            k.abort(AbortReason.conflict(st.wound));
            return;
        }
        Key key = op.key();
        LockMode mode = op.op().kind().exclusive() ? LockMode.X : LockMode.S;
        woundYounger(st, key, mode);
        Request r = new Request(st, key, mode, k);
        locks.acquire(t, st.locks, key, mode, r);
        if (!r.answered) {
            st.parked.add(r);
            waiters.computeIfAbsent(key, x -> new ArrayList<>(1)).add(r);
        }
    }

    /** Wounds every younger transaction that holds {@code key} here, or waits for it, in a conflicting mode. */
    private void woundYounger(State st, Key key, LockMode mode) {
        List<State> victims = new ArrayList<>(0);
        for (State h : holders.getOrDefault(key, new ArrayList<>(0))) {
            if (h != st && older(st.txn, h.txn) && !locks.compatible(st.txn, mode, h.txn, h.held.get(key))) {
                victims.add(h);
            }
        }
        for (Request w : waiters.getOrDefault(key, new ArrayList<>(0))) {
            if (w.st != st && older(st.txn, w.st.txn) && !locks.compatible(st.txn, mode, w.st.txn, w.mode)) {
                victims.add(w.st);
            }
        }
        for (State v : victims) {
            wound(v, "wound-wait: " + TxnIds.format(v.txn.id()) + " wounded by older " + TxnIds.format(st.txn.id())
                    + " on " + key + " at " + node.mechanism() + " node " + node.id(), true);
        }
    }

    private void wound(State v, String why, boolean tellCoordinator) {
        if (v.wound != null || v.txn.finished()) {
            return;
        }
        v.wound = why;
        v.txn.doom(why);
        for (Request r : new ArrayList<>(v.parked)) {
            r.abort(AbortReason.conflict(why));
        }
        if (tellCoordinator) {
            wounds.incrementAndGet();
            services.send(NodeId.tc(TxnIds.coordinator(v.txn.id())), node.id(), new TwoPlMessages.Wound(v.txn.id(),
                    why));
        }
    }

    private static boolean older(DsTxn a, DsTxn b) {
        return a.priority() < b.priority() || (a.priority() == b.priority() && a.id() < b.id());
    }

    /** A wound relayed by the transaction's coordinator ({@link WoundWaitTcPart}). */
    @Override
    public void onMessage(NodeId from, Object payload) {
        if (payload instanceof TwoPlMessages.Wound w) {
            DsTxn t = services.txn(w.txnId());
            State st = t == null ? null : t.state(node.depth(), State.class);
            if (st != null) {
                wound(st, w.why(), false);
            }
        }
    }

    @Override
    public Version chooseRead(DsTxn t, State st, OpContext op, Version proposal) {
        return plain.chooseRead(t, st.locks, op, proposal);
    }

    @Override
    public void validate(DsTxn t, State st, Continuation k) {
        plain.validate(t, st.locks, k);
    }

    @Override
    public void finish(DsTxn t, State st, boolean committed, Object commitMeta) {
        for (Key key : st.held.keySet()) {
            drop(holders, key, st);
        }
        st.held.clear();
        for (Request r : st.parked) {
            r.answered = true; // dropped with the transaction: the lock table forgets it below
            drop(waiters, r.key, r);
        }
        st.parked.clear();
        plain.finish(t, st.locks, committed, commitMeta);
    }

    private static <T> void drop(HashMap<Key, ArrayList<T>> m, Key key, T x) {
        ArrayList<T> l = m.get(key);
        if (l != null && l.remove(x) && l.isEmpty()) {
            m.remove(key);
        }
    }

    /** {@code 2pl.wounds}: transactions this part wounded (relayed wounds not counted again). */
    @Override
    public java.util.Map<String, Long> counters() {
        return java.util.Map.of("2pl.wounds", wounds.get());
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
        plain.rebind(n);
    }

    /**
     * One lock request as the lock table sees it: answered at most once, whether granted (then recorded as held),
     * aborted by a wound, or timed out.
     */
    private final class Request implements Continuation {
        final State st;
        final Key key;
        final LockMode mode;
        final Continuation k;
        boolean answered;

        Request(State st, Key key, LockMode mode, Continuation k) {
            this.st = st;
            this.key = key;
            this.mode = mode;
            this.k = k;
        }

        @Override
        public void proceed() {
            if (answered) {
                return; // granted after a wound aborted it: the abort's finish releases the lock
            }
            answered = true;
            unpark();
            st.held.merge(key, mode, LockMode::max);
            ArrayList<State> hs = holders.computeIfAbsent(key, x -> new ArrayList<>(2));
            if (!hs.contains(st)) {
                hs.add(st);
            }
            k.proceed();
        }

        @Override
        public void abort(AbortReason reason) {
            if (answered) {
                return;
            }
            answered = true;
            unpark();
            k.abort(reason);
        }

        private void unpark() {
            st.parked.remove(this);
            drop(waiters, key, this);
        }
    }
}
