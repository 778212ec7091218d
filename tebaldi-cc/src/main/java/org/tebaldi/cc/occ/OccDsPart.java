package org.tebaldi.cc.occ;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.TxnIds;

/**
 * DS part of Silo-style OCC (Tu et al., SOSP 2013, §4.4; COCO §5.1, PT-OCC), a leaf. Execution takes no lock and
 * never waits: a read returns the newest committed version (or the transaction's own write) and is remembered with
 * the version it returned, a write's version stays private — the store holds it uncommitted and no OCC read
 * returns another transaction's uncommitted version. Validation, at each data server: lock the write set (no
 * waiting: a key locked by another transaction aborts the validator), then check the read set — a key locked by
 * another transaction, or a newer committed version in this node's scope than the one read (the record's TID
 * changed), aborts. Locks are held until the transaction ends. Commit stamps the written versions with the
 * transaction's TID ({@link Tid}). When the coordinator validates at several data servers it locks every write set
 * first, in a round of its own ({@link OccMessages.Lock}), so that every lock is held before any read is validated;
 * with one participant the two steps run here back to back.
 *
 * <p>The version order follows the lock order, not the order of the writes: when the write set is locked, a
 * version behind a version committed meanwhile (a blind write overtaken by a later writer's commit) moves right
 * after it — Silo installs at commit, under the lock. As a child it reports, when it locks a key, a dependency on
 * every live transaction whose read of that key passed validation here: OCC orders the reader first (it read the
 * version this writer overwrites) although the reader may commit later, and a parent that adopts its children's
 * order waits for it (docs/mechanisms.md, "OCC").
 */
final class OccDsPart implements DsPart<OccDsPart.Txn> {
    /** What a transaction read and wrote here, and how far its validation got. */
    static final class Txn {
        final OccDsPart part;
        /** The first read of each key (a read of the transaction's own write is not kept). */
        final LinkedHashMap<Key, Access> reads = new LinkedHashMap<>();
        /** The transaction's version of each key it wrote. */
        final LinkedHashMap<Key, Access> writes = new LinkedHashMap<>();
        boolean locked;
        boolean validated;

        Txn(OccDsPart part) {
            this.part = part;
        }
    }

    /** A key's chain and the version read (null: no version, the row was absent) or written. */
    record Access(VersionChain chain, Version version) {
    }

    private CcNode node;
    private final DsServices services;
    private final int level;
    private final int id;
    /** The holder of each locked key. */
    private final HashMap<Key, DsTxn> locks = new HashMap<>();
    /** Live transactions whose read of the key passed validation here (kept only below a parent, which needs them). */
    private final HashMap<Key, List<DsTxn>> validatedReaders = new HashMap<>();

    OccDsPart(CcNode node, DsServices services) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.id = node.id();
    }

    /** Number of locked keys (tests and leak checks). */
    int lockedKeys() {
        return locks.size();
    }

    @Override
    public Txn newState(DsTxn t) {
        return new Txn(this);
    }

    /** A read returns the transaction's own write (the leaf's proposal) or the newest committed version. */
    @Override
    public Version chooseRead(DsTxn t, Txn st, OpContext op, Version proposal) {
        return proposal != null ? proposal : op.chain().latestCommitted();
    }

    /** Remembers the version a read returned (the read set) and the version a write made (the write set). */
    @Override
    public void afterOp(DsTxn t, Txn st, OpContext op) {
        if (op.op().kind().reads()) {
            Version c = op.chosen();
            if (c == null || c.writer() != t.id()) {
                st.reads.putIfAbsent(op.key(), new Access(op.chain(), c));
            }
        }
        if (op.written() != null) {
            st.writes.putIfAbsent(op.key(), new Access(op.chain(), op.written()));
        }
    }

    /** Locks the write set unless the lock round did, validates the read set, and reports the largest TID seen. */
    @Override
    public void validate(DsTxn t, Txn st, Continuation k) {
        String why = lockWrites(t, st);
        if (why == null) {
            why = validateReads(t, st);
        }
        if (why != null) {
            k.abort(AbortReason.conflict(why));
            return;
        }
        st.validated = true;
        if (!node.isRoot()) {
            for (Key key : st.reads.keySet()) {
                validatedReaders.computeIfAbsent(key, x -> new ArrayList<>(2)).add(t);
            }
        }
        long max = 0;
        for (Access r : st.reads.values()) {
            max = Math.max(max, tid(r.version()));
        }
        for (Access w : st.writes.values()) {
            max = Math.max(max, tid(newestCommitted(t, w.chain())));
        }
        if (max > 0) {
            t.report(level, new OccMessages.MaxTid(max));
        }
        k.proceed();
    }

    /** The lock round of a multi-server validation: lock the write set here and answer the coordinator. */
    @Override
    public void onMessage(NodeId from, Object payload) {
        if (payload instanceof OccMessages.Lock l) {
            DsTxn t = services.txn(l.txnId());
            Txn st = t == null || t.finished() ? null : t.state(level, Txn.class);
            String why = st == null || st.part != this
                    ? "occ: " + TxnIds.format(l.txnId()) + " is not live at ds" + services.dsIndex() + " any more"
                    : lockWrites(t, st);
            services.send(from, id, new OccMessages.Locked(l.txnId(), why));
        }
    }

    /** Committed: stamps the written versions with the TID. Either way: unlocks, forgets the validated reads. */
    @Override
    public void finish(DsTxn t, Txn st, boolean committed, Object commitMeta) {
        if (committed && commitMeta instanceof OccMessages.CommitTid c) {
            for (Access w : st.writes.values()) {
                w.version().setStamp(id, c.tid());
            }
        }
        if (st.locked) {
            for (Key key : st.writes.keySet()) {
                if (locks.get(key) == t) {
                    locks.remove(key);
                }
            }
            st.locked = false;
        }
        if (st.validated && !node.isRoot()) {
            for (Key key : st.reads.keySet()) {
                List<DsTxn> l = validatedReaders.get(key);
                if (l != null) {
                    l.remove(t);
                    if (l.isEmpty()) {
                        validatedReaders.remove(key);
                    }
                }
            }
        }
        st.validated = false;
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }

    /**
     * Locks every key of the write set (no-op if already done): a key another transaction holds aborts — the keys
     * locked by this call are released again — with the reason returned; null on success. Each locked version moves
     * behind the versions committed in scope after it, and each live validated reader of a locked key becomes a
     * dependency of {@code t}.
     */
    private String lockWrites(DsTxn t, Txn st) {
        if (st.locked) {
            return null;
        }
        List<Key> taken = new ArrayList<>(st.writes.size());
        for (Map.Entry<Key, Access> e : st.writes.entrySet()) {
            DsTxn holder = locks.get(e.getKey());
            String why = holder != null && holder != t
                    ? "occ: write set: " + e.getKey() + " is locked by " + TxnIds.format(holder.id())
                            + " at occ node " + id
                    : placeAfterCommitted(t, e.getKey(), e.getValue());
            if (why != null) {
                taken.forEach(locks::remove);
                return why;
            }
            if (holder == null) {
                locks.put(e.getKey(), t);
                taken.add(e.getKey());
            }
        }
        st.locked = true;
        if (!node.isRoot()) {
            for (Key key : st.writes.keySet()) {
                List<DsTxn> readers = validatedReaders.get(key);
                if (readers != null) {
                    for (DsTxn r : readers) {
                        if (r != t && !r.finished()) {
                            services.addDependency(t, r, level);
                        }
                    }
                }
            }
        }
        return null;
    }

    /**
     * Moves the transaction's version of a key right after the newest version committed in scope, if one lies
     * after it: the version order is the commit (lock) order. Null on success, else why not (no room in the
     * version order; the version stays where it was).
     */
    private String placeAfterCommitted(DsTxn t, Key key, Access w) {
        VersionChain chain = w.chain();
        Version mine = w.version();
        int at = chain.indexOf(mine);
        int last = -1;
        for (int i = chain.size() - 1; i > at; i--) {
            Version v = chain.get(i);
            if (v.committed() && inScope(t, v)) {
                last = i;
                break;
            }
        }
        if (at < 0 || last < 0) {
            return null;
        }
        chain.remove(mine);
        if (!chain.insert(last, mine)) { // after the removal, index `last` is right behind the committed version
            chain.insert(at, mine);
            return "occ: no room left in the version order of " + key + " at occ node " + id;
        }
        return null;
    }

    /**
     * Null if every read is still current: the key is not locked by another transaction and no version committed
     * in scope lies after the version read (Silo: the record's TID is unchanged). Else why not.
     */
    private String validateReads(DsTxn t, Txn st) {
        for (Map.Entry<Key, Access> e : st.reads.entrySet()) {
            Key key = e.getKey();
            DsTxn holder = locks.get(key);
            if (holder != null && holder != t) {
                return "occ: read validation: " + key + " is locked by " + TxnIds.format(holder.id()) + " at occ node "
                        + id;
            }
            VersionChain chain = e.getValue().chain();
            Version read = e.getValue().version();
            int from = read == null ? -1 : chain.indexOf(read);
            if (read != null && from < 0) {
                return "occ: read validation: the version of " + key + " read was pruned (a newer one committed) at"
                        + " occ node " + id;
            }
            for (int i = chain.size() - 1; i > from; i--) {
                Version v = chain.get(i);
                if (v.committed() && v.writer() != t.id() && inScope(t, v)) {
                    return "occ: read validation: " + key + " changed (TID " + Tid.format(tid(read)) + ", now "
                            + Tid.format(tid(v)) + ") at occ node " + id;
                }
            }
        }
        return null;
    }

    /** Versions this node regulates: written by its transactions (of the same instance under partition-by-instance). */
    private boolean inScope(DsTxn t, Version v) {
        return v.writerLeaf() == id && (node.instanceBy() == null || v.writerInstance() == t.instance());
    }

    private Version newestCommitted(DsTxn t, VersionChain chain) {
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (v.committed() && inScope(t, v)) {
                return v;
            }
        }
        return null;
    }

    /** The TID of a version (0 for none, the initial load, or a version this node did not commit). */
    private long tid(Version v) {
        return v == null || v.stamp(id) == Version.NO_STAMP ? 0 : v.stamp(id);
    }
}
