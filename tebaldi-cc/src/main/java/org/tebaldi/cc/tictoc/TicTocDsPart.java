package org.tebaldi.cc.tictoc;

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
import org.tebaldi.core.cc.TimedWait;
import org.tebaldi.core.cc.lease.LeaseStore;
import org.tebaldi.core.cc.lease.LiveReaders;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;

/**
 * DS part of TicToc (Yu et al., SIGMOD 2016), distributed as Sundial runs it (Sundial §3): reads never lock and
 * record the lease {@code [wts, rts]} of the committed version they read; writes install their version at once
 * (uncommitted, visible to no other transaction) without a lock. At validation, with the commit timestamp the
 * coordinator computed from the execution's leases: lock the write set (a key another validating transaction
 * holds aborts this one — no waiting, so no deadlock across servers); each write must follow the lease of the
 * key's latest committed version ({@code rts < commit_ts}), and its version moves to the top of the key's version
 * order (commit order is timestamp order on a key) — under a parent, which may have placed the version, it stays
 * and the transaction aborts instead if a version of this leaf's group committed above it; each read whose lease ends before {@code commit_ts} is renewed
 * — the version must still be the latest committed (else "wts changed") and the key not locked by another
 * validating transaction — by extending its {@code rts}. At commit each written version gets {@code [commit_ts,
 * commit_ts]} and the locks go.
 *
 * <p><b>Under a parent.</b> The parent adopts this leaf's order from reported dependencies (the {@code DsPart}
 * contract). TicToc orders a reader before a concurrent writer of the version it read, so the writer depends on
 * every live reader of the key — reported by the write ({@code dependOn}) or by the read ({@code addDependency});
 * a read of a key a validating writer has locked waits until that writer finished (its vote is cast, the order can
 * no longer be reported), bounded by the wait timeout, and then checks again — unless the reader itself ended
 * meanwhile, and never on a finished holder (a lock left in a part a recovery round abandoned). Every other order
 * TicToc makes is on finished transactions.
 */
final class TicTocDsPart implements DsPart<TicTocDsPart.Txn> {
    /** A read: the version (null: the key had no committed version) and its lease when read. */
    private record Read(Key key, VersionChain chain, Version version, long wts, long rts) {
    }

    /** A transaction's reads, writes (own versions by key) and validation locks at this server. */
    static final class Txn {
        final List<Read> reads = new ArrayList<>(2);
        final Map<Key, Version> writes = new LinkedHashMap<>(2);
        final Map<Key, VersionChain> chains = new HashMap<>(2);
        final List<Key> locked = new ArrayList<>(0);
        final List<Key> readKeys = new ArrayList<>(0);
        long reported;
    }

    private CcNode node;
    private final DsServices services;
    private final int level;
    private final LeaseStore leases;
    private final LiveReaders readers = new LiveReaders();
    /** Validation locks: key → the validating transaction that holds it. */
    private final HashMap<Key, DsTxn> locks = new HashMap<>();

    TicTocDsPart(CcNode node, DsServices services) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.leases = new LeaseStore(node.id());
    }

    @Override
    public Txn newState(DsTxn t) {
        return new Txn();
    }

    @Override
    public void execute(DsTxn t, Txn st, OpContext op, Continuation k) {
        DsTxn holder = locks.get(op.key());
        // a finished holder's lock is stale: finish releases it before the holder counts as finished, except in a
        // part a recovery round abandoned (its dropped transactions are only marked aborted); waiting on it again
        // would wake at once, find the lock, and wait again — for ever, at one virtual instant
        if (node.isRoot() || !op.op().kind().reads() || holder == null || holder == t || holder.finished()) {
            k.proceed();
            return;
        }
        TimedWait w = services.awaitOrTimeout(services.waitTimeoutMicros(), () -> k.abort(AbortReason.conflict(
                "tictoc: read of " + op.key() + " waited " + services.waitTimeoutMicros() / 1000
                        + " ms for a validating writer (under a parent)")));
        services.awaitFinish(holder, committed -> {
            if (!w.complete()) {
                return;
            }
            if (t.finished()) {
                k.abort(AbortReason.conflict("tictoc: ended at this data server while its read of " + op.key()
                        + " waited for a validating writer"));
            } else {
                execute(t, st, op, k);
            }
        });
    }

    /**
     * The read-version chain: the transaction's own write, else — under a parent — the key's latest committed version,
     * the one this leaf orders the reader after (a parent that leaves the order within a batch to its child, like
     * inner TSO, must be offered it); at the root, null (the latest committed version).
     */
    @Override
    public Version chooseRead(DsTxn t, Txn st, OpContext op, Version proposal) {
        return proposal != null || node.isRoot() ? proposal : op.chain().latestCommitted();
    }

    @Override
    public void afterOp(DsTxn t, Txn st, OpContext op) {
        Key key = op.key();
        Version c = op.chosen();
        if (op.op().kind().reads() && (c == null || c.writer() != t.id())) {
            read(t, st, op, c);
        }
        Version w = op.written();
        if (w != null && !st.writes.containsKey(key)) {
            st.writes.put(key, w);
            st.chains.put(key, op.chain());
            Version cur = op.chain().latestCommitted();
            bound(t, st, (cur == null ? leases.absentRts(key) : leases.rts(cur)) + 1);
            if (!node.isRoot()) {
                for (DsTxn r : readers.live(key, t)) {
                    op.dependOn(r);
                }
            }
        }
    }

    private void read(DsTxn t, Txn st, OpContext op, Version c) {
        Key key = op.key();
        if (c != null && !c.committed()) {
            t.doom("tictoc: a parent made the read of " + key + " return an uncommitted version");
            return;
        }
        long wts;
        long rts;
        if (c != null) {
            wts = leases.wts(c);
            rts = leases.rts(c);
        } else {
            wts = 0;
            // absent although committed versions exist (a parent's snapshot): the absence cannot be renewed
            rts = op.chain().latestCommitted() == null ? leases.absentRts(key) : -1;
        }
        st.reads.add(new Read(key, op.chain(), c, wts, rts));
        bound(t, st, wts);
        if (!node.isRoot()) {
            readers.add(key, t);
            st.readKeys.add(key);
            VersionChain chain = op.chain();
            for (int i = chain.size() - 1; i >= 0; i--) {
                Version v = chain.get(i);
                if (!v.committed() && v.writer() != t.id() && v.writerLeaf() == node.id()) {
                    DsTxn u = services.txn(v.writer());
                    if (u != null && !u.finished()) {
                        services.addDependency(u, t, level);
                    }
                }
            }
        }
    }

    private void bound(DsTxn t, Txn st, long ts) {
        if (ts > st.reported) {
            st.reported = ts;
            t.report(level, new TicTocMessages.Bound(ts));
        }
    }

    @Override
    public void validate(DsTxn t, Txn st, Continuation k) {
        TicTocMessages.CommitTs m = t.meta(level, TicTocMessages.CommitTs.class);
        if (m == null) {
            k.abort(AbortReason.error("tictoc: validation without a commit timestamp"));
            return;
        }
        long cts = m.ts();
        for (Key key : st.writes.keySet()) {
            DsTxn h = locks.get(key);
            if (h != null && h != t) {
                k.abort(AbortReason.conflict("tictoc: " + key + " is locked by another validating transaction"));
                return;
            }
            if (h == null) {
                locks.put(key, t);
                st.locked.add(key);
            }
        }
        for (Map.Entry<Key, Version> e : st.writes.entrySet()) {
            VersionChain chain = st.chains.get(e.getKey());
            Version cur = chain.latestCommitted();
            long rts = cur == null ? leases.absentRts(e.getKey()) : leases.rts(cur);
            if (rts >= cts) {
                k.abort(AbortReason.conflict("tictoc: the lease of " + e.getKey() + " ends at " + rts
                        + ", not before the commit timestamp " + cts));
                return;
            }
            if (node.isRoot()) {
                if (chain.latest() != e.getValue()) {
                    chain.remove(e.getValue()); // commit order is timestamp order on a key: the write goes on top
                    chain.append(e.getValue());
                }
            } else if (leases.groupCommittedAbove(chain, e.getValue())) {
                k.abort(AbortReason.conflict("tictoc: a later write of " + e.getKey() + " in this group committed"
                        + " first (under a parent the version order stays where the parents placed it)"));
                return;
            }
        }
        for (Read r : st.reads) {
            String why = renew(t, r, cts);
            if (why != null) {
                k.abort(AbortReason.conflict(why));
                return;
            }
        }
        k.proceed();
    }

    /** TicToc's read validation at {@code cts}: null if the read holds there (its lease extended if needed). */
    private String renew(DsTxn t, Read r, long cts) {
        if (cts <= r.rts()) {
            return null;
        }
        Version cur = r.chain().latestCommitted();
        if (cur != r.version()) {
            return "tictoc: lease renewal failed: wts changed on " + r.key();
        }
        long rts = cur == null ? leases.absentRts(r.key()) : leases.rts(cur);
        if (rts >= cts) {
            return null;
        }
        DsTxn h = locks.get(r.key());
        if (h == t) {
            return null; // this transaction writes the key: no one else can change it before the commit
        }
        if (h != null) {
            return "tictoc: lease renewal failed: " + r.key() + " is locked by a validating writer";
        }
        if (cur == null) {
            leases.extendAbsent(r.key(), cts);
        } else {
            leases.extend(cur, cts);
        }
        return null;
    }

    @Override
    public void finish(DsTxn t, Txn st, boolean committed, Object commitMeta) {
        if (committed && commitMeta instanceof TicTocMessages.CommitTs c) {
            for (Map.Entry<Key, Version> e : st.writes.entrySet()) {
                leases.install(e.getValue(), c.ts());
                leases.clearAbsent(e.getKey());
            }
        }
        for (Key key : st.locked) {
            if (locks.get(key) == t) {
                locks.remove(key);
            }
        }
        for (Key key : st.readKeys) {
            readers.remove(key, t);
        }
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }

    /** Validation locks held (for tests and leak checks). */
    int lockCount() {
        return locks.size();
    }
}
