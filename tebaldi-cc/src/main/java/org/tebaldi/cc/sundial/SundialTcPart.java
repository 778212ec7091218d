package org.tebaldi.cc.sundial;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.CcReport;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.LocalRead;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.TimedWait;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.OpKind;

/**
 * TC part of Sundial (Yu et al., VLDB 2018): the commit timestamp is the largest bound the data servers reported
 * during execution — {@code wts} of every version read, {@code rts + 1} of every version locked for writing (Alg.
 * 1) — fixed when the prepare phase starts and shipped with the prepare requests and the commit.
 *
 * <p><b>Caching</b> (§4, option {@code cache}): a plain read whose key is in this coordinator's {@link RemoteCache}
 * may be answered here, by the caching policy; the cached version's lease then belongs to the transaction's read
 * set like a remote read's, and in the prepare phase every such read whose lease ends before the commit timestamp
 * is renewed at its data server — with that server's prepare request, or by a message of its own to a server the
 * transaction has no other business with (a failure aborts and evicts the entry). With durable commits (§4.5.4) a
 * transaction's first operation always goes to a data server, where its outcome is logged: one that reached none
 * would leave no trace to recover. A cached read of a key the transaction then writes must still be the version its lock found (Alg. 1,
 * l. 21). Versions read at a data server and this coordinator's committed writes refresh the cache (Alg. 1, l. 13;
 * Alg. 3, l. 5–6). A transaction whose reads were all served here and wrote nothing commits without a message when
 * every cached lease covers its commit timestamp. A data server's GC confirmation (a {@link SundialMessages.Fence})
 * drops the cached versions older than the epoch's, and is answered once the reads the cache served before are
 * handed over to the history check ({@link TcServices#afterHistoryHandOver}); a version a transaction that began
 * before the last fence read at a data server is not cached (it may be older than the fenced one).
 */
final class SundialTcPart implements TcPart<SundialTcPart.Txn>, org.tebaldi.core.cc.ServesReads<SundialTcPart.Txn>,
        org.tebaldi.core.cc.KeepsServerState {
    /** A read served from the cache: its version and the lease end the cache knew. */
    private record CachedRead(Key key, int ds, long writer, int writeSeq, long rts) {
    }

    /** A transaction's bound on its commit timestamp and, with the cache, its cached reads and writes. */
    static final class Txn {
        long bound;
        boolean fixed;
        /** Some operation went (or goes) to a data server. */
        boolean remote;
        String doomed;
        List<CachedRead> cached;
        Map<Key, SundialMessages.Wrote> writes;
        Map<Key, RemoteCache.Entry> checking;
        SundialMessages.Prepare prepare;
        int pendingRenewals;
        String renewalFailed;
        TimedWait renewal;
        Continuation renewed;
        /** Fences this coordinator had answered when the transaction began. */
        long fencesAtStart;
    }

    private CcNode node;
    private final TcServices services;
    private final RemoteCache cache;
    /** Fences (GC confirmations of the data servers) handled so far. */
    private long fences;

    /** @param cache the coordinator's cache, or null when caching is off */
    SundialTcPart(CcNode node, TcServices services, RemoteCache cache) {
        this.node = node;
        this.services = services;
        this.cache = cache;
    }

    @Override
    public Txn newState(TcTxn t) {
        Txn st = new Txn();
        st.fencesAtStart = fences;
        return st;
    }

    /** An operation other than a plain read goes to its data server. */
    @Override
    public void beforeOp(TcTxn t, Txn st, Op op, Continuation k) {
        if (op.kind() != OpKind.READ) {
            st.remote = true;
        }
        k.proceed();
    }

    @Override
    public LocalRead serveRead(TcTxn t, Txn st, Op op) {
        if (cache == null || services.durable() && !st.remote) {
            st.remote = true; // with durable commits a transaction's first operation goes to a data server
            return null;
        }
        LocalRead r = fromCache(st, op);
        if (r == null) {
            st.remote = true;
        }
        return r;
    }

    private LocalRead fromCache(Txn st, Op op) {
        Key key = op.key();
        if (st.fixed || st.writes != null && st.writes.containsKey(key)) {
            return null;
        }
        RemoteCache.Entry e = cache.lookup(key);
        if (e == null) {
            return null;
        }
        int ds = services.partitionOf(key);
        long rts = cache.rts(ds, key, e);
        if (!cache.reuse(Math.max(st.bound, e.wts) <= rts)) {
            if (st.checking == null) {
                st.checking = new HashMap<>(4);
            }
            st.checking.put(key, e);
            return null;
        }
        cache.served();
        if (st.cached == null) {
            st.cached = new ArrayList<>(4);
        }
        st.cached.add(new CachedRead(key, ds, e.writer, e.writeSeq, rts));
        st.bound = Math.max(st.bound, e.wts);
        return new LocalRead(e.row, e.writer, e.writeSeq);
    }

    @Override
    public void onReport(TcTxn t, Txn st, CcReport report) {
        if (report instanceof SundialMessages.Bound b) {
            raise(st, b.ts());
        } else if (report instanceof SundialMessages.ReadLease r) {
            raise(st, r.wts());
            int ds = services.partitionOf(r.key());
            cache.tableLease(ds, r.key().table(), r.tabWts(), r.tabRts());
            RemoteCache.Entry checked = st.checking == null ? null : st.checking.remove(r.key());
            if (checked != null) {
                cache.vote(checked.same(r.writer(), r.writeSeq()));
            }
            // a transaction that began before the last fence may have read a version older than one it settled
            if (st.fencesAtStart == fences) {
                cache.offer(r.key(), new RemoteCache.Entry(r.row(), r.writer(), r.writeSeq(), r.wts(), r.rts()));
            }
        } else if (report instanceof SundialMessages.Renewed r) {
            learn(services.partitionOf(r.key()), r);
        } else if (report instanceof SundialMessages.Wrote w) {
            raise(st, w.bound());
            if (st.writes == null) {
                st.writes = new LinkedHashMap<>(4);
            }
            st.writes.put(w.key(), w);
            if (st.cached != null) {
                for (CachedRead c : st.cached) {
                    if (c.key().equals(w.key()) && (c.writer() != w.lockedWriter() || c.writeSeq() != w.lockedSeq())
                            && st.doomed == null) {
                        st.doomed = "sundial: " + w.key() + " changed between the cached read and the write lock"
                                + " (wts changed)";
                    }
                }
            }
        }
    }

    private static void raise(Txn st, long ts) {
        if (!st.fixed) {
            st.bound = Math.max(st.bound, ts);
        }
    }

    /**
     * Prepare phase, before the requests leave: fixes the commit timestamp; the cached reads whose lease ends before it
     * are renewed (Alg. 2, l. 1–10) — by the prepare request of their data server when it is a participant (listed in
     * {@link SundialMessages.Prepare}), else by a {@link SundialMessages.Renew} sent now and awaited in {@link
     * #validate}.
     */
    @Override
    public void beforeValidation(TcTxn t, Txn st, Continuation k) {
        if (st.doomed != null) {
            k.abort(AbortReason.conflict(st.doomed));
            return;
        }
        st.fixed = true;
        List<SundialMessages.Renewal> inPrepare = new ArrayList<>(0);
        if (st.cached != null) {
            int[] participants = t.participants();
            for (CachedRead c : st.cached) {
                if (st.bound <= c.rts() || st.writes != null && st.writes.containsKey(c.key())) {
                    continue;
                }
                if (contains(participants, c.ds())) {
                    inPrepare.add(new SundialMessages.Renewal(c.ds(), c.key(), c.writer(), c.writeSeq()));
                } else {
                    st.pendingRenewals++;
                    services.send(NodeId.ds(c.ds()), node.id(), new SundialMessages.Renew(t.id(), c.key(), c.writer(),
                            c.writeSeq(), st.bound));
                }
            }
        }
        st.prepare = new SundialMessages.Prepare(st.bound, inPrepare.toArray(new SundialMessages.Renewal[0]));
        k.proceed();
    }

    private static boolean contains(int[] a, int x) {
        for (int y : a) {
            if (y == x) {
                return true;
            }
        }
        return false;
    }

    /** After the votes: waits for the renewals sent to data servers that are not participants. */
    @Override
    public void validate(TcTxn t, Txn st, Continuation k) {
        if (st.renewalFailed != null) {
            k.abort(AbortReason.conflict(st.renewalFailed));
            return;
        }
        if (st.pendingRenewals == 0) {
            k.proceed();
            return;
        }
        st.renewed = k;
        st.renewal = services.awaitOrTimeout(services.waitTimeoutMicros(), () -> k.abort(AbortReason.conflict(
                "sundial: lease renewal of a cached read timed out after " + services.waitTimeoutMicros() / 1000
                        + " ms")));
    }

    /** A renewal's answer, as a message ({@link SundialMessages.Renew}) or with a prepare vote: the cache learns. */
    private void learn(int ds, SundialMessages.Renewed r) {
        cache.tableLease(ds, r.key().table(), r.tabWts(), r.tabRts());
        if (r.ok()) {
            cache.renewed(r.key(), r.writer(), r.writeSeq(), r.rts());
        } else {
            cache.renewalFailed(r.key());
        }
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (payload instanceof SundialMessages.Fence f) {
            fence(from, f);
            return;
        }
        if (!(payload instanceof SundialMessages.Renewed r) || cache == null) {
            return;
        }
        learn(from.index(), r);
        TcTxn t = services.txn(r.txnId());
        Txn st = t == null ? null : t.state(node.depth(), Txn.class);
        if (st == null || st.pendingRenewals == 0) {
            return;
        }
        st.pendingRenewals--;
        if (!r.ok() && st.renewalFailed == null) {
            st.renewalFailed = r.why();
        }
        if (st.renewal != null && (!r.ok() || st.pendingRenewals == 0) && st.renewal.complete()) {
            if (st.renewalFailed != null) {
                st.renewed.abort(AbortReason.conflict(st.renewalFailed));
            } else {
                st.renewed.proceed();
            }
        }
    }

    /**
     * A data server's GC confirmation (docs/mechanisms.md, "TicToc and Sundial"): the older versions leave the cache
     * now; the answer goes once what this coordinator recorded so far reached the history check.
     */
    private void fence(NodeId from, SundialMessages.Fence f) {
        if (cache != null) {
            fences++;
            if (f.wholeServer()) {
                cache.evictIf(k -> services.partitionOf(k) == from.index());
            }
            for (SundialMessages.Settled v : f.versions()) {
                cache.settled(v.key(), v.writer(), v.writeSeq(), v.wts());
            }
        }
        int level = node.id();
        services.afterHistoryHandOver(() -> services.send(from, level, new SundialMessages.Fenced(f.id())));
    }

    @Override
    public Object meta(TcTxn t, Txn st) {
        return st.prepare;
    }

    @Override
    public Object commitMeta(TcTxn t, Txn st) {
        return new SundialMessages.CommitTs(st.bound);
    }

    @Override
    public void finish(TcTxn t, Txn st, boolean committed) {
        if (st.renewal != null) {
            st.renewal.cancel();
        }
        if (committed && cache != null && st.writes != null) {
            for (SundialMessages.Wrote w : st.writes.values()) {
                cache.committedWrite(w.key(), w.row(), t.id(), w.writeSeq(), st.bound);
            }
        }
    }

    @Override
    public void storageRecovered() {
        if (cache != null) {
            cache.clear();
        }
    }

    @Override
    public Map<String, Long> counters() {
        return cache == null ? Map.of() : cache.counters();
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }
}
