package org.tebaldi.cc.sundial;

import java.util.ArrayList;
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
import org.tebaldi.core.cc.lock.LockMode;
import org.tebaldi.core.cc.lock.LockTable;
import org.tebaldi.core.cc.lock.TxnLocks;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;

/**
 * DS part of Sundial (Yu et al., VLDB 2018, §3.3). Execution: a write (and a read for update) takes an exclusive
 * lock under Wait-Die (a younger requester than a holder aborts, an older one waits) and reports {@code rts + 1} of
 * the key's latest committed version as a bound on the commit timestamp (Alg. 1, l. 20–24; a key the transaction
 * read before must not have changed, l. 21); a read never waits, reads the latest committed version with its lease
 * and reports its {@code wts} (l. 10–14). Prepare ({@code renew_lease}, Alg. 2): every read of a key the
 * transaction does not write whose lease ends before the commit timestamp is renewed — it fails if the version is
 * no longer the latest ("wts changed") or another transaction holds the key's lock ("locked"). Commit ({@code
 * update_and_unlock}, Alg. 3): written versions get {@code [commit_ts, commit_ts]}, the locks go. A participant
 * where the transaction wrote nothing has nothing to do at commit. Under a parent that placed a write below a
 * version of this leaf's group that committed first (inner TSO inserts by batch timestamp), the prepare fails.
 *
 * <p>With table-level leases (§4.3, {@link TableLeases}) a renewal of a read-only table's tuple renews the whole
 * table. With the coordinator's cache on it renews the leases of reads served from the cache — those its prepare
 * request lists ({@link SundialMessages.Renewal}), and those of a transaction with no other business here
 * ({@link SundialMessages.Renew}) — and reports leases and written rows ({@link SundialMessages.ReadLease},
 * {@link SundialMessages.Wrote}); since a cache may serve a version the data server has since overwritten, it
 * confirms garbage collection only once every coordinator's cache dropped the older versions ({@link CacheFences}).
 *
 * <p><b>Under a parent</b> (docs/mechanisms.md): a reader goes ahead of a concurrent writer of the version it read,
 * so the lock holder depends on every live reader of the key (reported by the read or by the write); a read of a
 * key whose holder already passed its prepare here waits until that holder finished (its vote is cast: the order
 * can no longer be reported), bounded by the wait timeout.
 */
final class SundialDsPart implements DsPart<SundialDsPart.Txn> {
    /** A read: the committed version (null: the key had none) and its lease when read. */
    private record Read(Key key, VersionChain chain, Version version, long wts, long rts) {
    }

    /** A transaction's locks, reads, writes (own versions by key) at this server, and whether it prepared here. */
    static final class Txn {
        final TxnLocks locks = new TxnLocks();
        final List<Key> lockedKeys = new ArrayList<>(0);
        final List<Read> reads = new ArrayList<>(2);
        final Map<Key, Version> writes = new LinkedHashMap<>(2);
        final Map<Key, VersionChain> chains = new java.util.HashMap<>(2);
        final List<Key> readKeys = new ArrayList<>(0);
        /** With the cache: written keys that had a committed version when locked (a cache may hold it). */
        final List<Key> overwrote = new ArrayList<>(0);
        long reported;
        boolean prepared;
    }

    private CcNode node;
    private final DsServices services;
    private final int level;
    private final LockTable lockTable;
    private final LeaseStore leases;
    private final TableLeases tables;
    private final LiveReaders readers = new LiveReaders();
    private final boolean cache;
    /** GC confirmation with the coordinators' caches (null without the cache). */
    private final CacheFences fences;

    SundialDsPart(CcNode node, DsServices services, long lockTimeoutMicros, boolean cache, boolean tableLeases) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.lockTable = new LockTable(node, services, lockTimeoutMicros, true);
        this.leases = new LeaseStore(node.id());
        this.tables = new TableLeases(tableLeases);
        this.cache = cache;
        this.fences = cache ? new CacheFences(services, node.id(), leases::wts) : null;
    }

    @Override
    public Txn newState(DsTxn t) {
        return new Txn();
    }

    @Override
    public void execute(DsTxn t, Txn st, OpContext op, Continuation k) {
        Key key = op.key();
        if (op.op().kind().exclusive()) {
            lockTable.acquire(t, st.locks, key, LockMode.X, new Continuation() {
                @Override
                public void proceed() {
                    if (!st.lockedKeys.contains(key)) {
                        st.lockedKeys.add(key);
                        tables.locked(key.table());
                    }
                    k.proceed();
                }

                @Override
                public void abort(AbortReason reason) {
                    k.abort(reason);
                }
            });
            return;
        }
        DsTxn holder = node.isRoot() ? null : lockTable.exclusiveHolder(key);
        // a finished holder's lock is stale (left in a part a recovery round abandoned, whose dropped transactions
        // are only marked aborted): waiting on it again would wake at once and wait again, for ever
        if (holder == null || holder == t || holder.finished() || !prepared(holder)) {
            k.proceed();
            return;
        }
        TimedWait w = services.awaitOrTimeout(services.waitTimeoutMicros(), () -> k.abort(AbortReason.conflict(
                "sundial: read of " + key + " waited " + services.waitTimeoutMicros() / 1000
                        + " ms for a prepared writer (under a parent)")));
        services.awaitFinish(holder, committed -> {
            if (!w.complete()) {
                return;
            }
            if (t.finished()) {
                k.abort(AbortReason.conflict("sundial: ended at this data server while its read of " + key
                        + " waited for a prepared writer"));
            } else {
                execute(t, st, op, k);
            }
        });
    }

    private boolean prepared(DsTxn t) {
        Txn s = t.state(level, Txn.class);
        return s != null && s.prepared;
    }

    /** The end of the lease of {@code key}'s version {@code v} (null: the absence), table lease included. */
    private long rts(Key key, Version v) {
        return tables.effective(key.table(), v == null ? leases.absentRts(key) : leases.rts(v));
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
        Version c = op.chosen();
        if (op.op().kind().reads() && (c == null || c.writer() != t.id())) {
            read(t, st, op, c);
        }
        Version w = op.written();
        if (w != null) {
            wrote(t, st, op, w);
        }
    }

    private void read(DsTxn t, Txn st, OpContext op, Version c) {
        Key key = op.key();
        if (c != null && !c.committed()) {
            t.doom("sundial: a parent made the read of " + key + " return an uncommitted version");
            return;
        }
        long wts = c == null ? 0 : leases.wts(c);
        // absent although committed versions exist (a parent's snapshot): the absence cannot be renewed
        long rts = c == null && op.chain().latestCommitted() != null ? -1 : rts(key, c);
        st.reads.add(new Read(key, op.chain(), c, wts, rts));
        if (cache && c != null) {
            st.reported = Math.max(st.reported, wts);
            t.report(level, new SundialMessages.ReadLease(key, c.value(), c.writer(), c.writeSeq(), wts, rts,
                    tables.wts(key.table()), tables.rts(key.table())));
        } else {
            bound(t, st, wts);
        }
        if (!node.isRoot()) {
            readers.add(key, t);
            st.readKeys.add(key);
            DsTxn holder = lockTable.exclusiveHolder(key);
            if (holder != null && holder != t && !holder.finished()) {
                services.addDependency(holder, t, level);
            }
        }
    }

    private void wrote(DsTxn t, Txn st, OpContext op, Version w) {
        Key key = op.key();
        Version cur = op.chain().latestCommitted();
        long b = rts(key, cur) + 1;
        if (!st.writes.containsKey(key)) {
            st.writes.put(key, w);
            st.chains.put(key, op.chain());
            for (Read r : st.reads) {
                if (r.key().equals(key) && r.version() != cur) {
                    t.doom("sundial: " + key + " changed between the read and the write lock (wts changed)");
                }
            }
            if (!node.isRoot()) {
                for (DsTxn r : readers.live(key, t)) {
                    op.dependOn(r);
                }
            }
            if (!cache) {
                bound(t, st, b);
            }
        }
        if (cache) {
            if (cur != null && !st.overwrote.contains(key)) {
                st.overwrote.add(key);
            }
            st.reported = Math.max(st.reported, b);
            t.report(level, new SundialMessages.Wrote(key, w.value(), w.writeSeq(), cur == null ? -1 : cur.writer(),
                    cur == null ? 0 : cur.writeSeq(), b));
        }
    }

    private void bound(DsTxn t, Txn st, long ts) {
        if (ts > st.reported) {
            st.reported = ts;
            t.report(level, new SundialMessages.Bound(ts));
        }
    }

    @Override
    public void validate(DsTxn t, Txn st, Continuation k) {
        SundialMessages.Prepare m = t.meta(level, SundialMessages.Prepare.class);
        if (m == null) {
            k.abort(AbortReason.error("sundial: prepare without a commit timestamp"));
            return;
        }
        if (!node.isRoot()) {
            for (Map.Entry<Key, Version> e : st.writes.entrySet()) {
                if (leases.groupCommittedAbove(st.chains.get(e.getKey()), e.getValue())) {
                    k.abort(AbortReason.conflict("sundial: a parent placed the write of " + e.getKey()
                            + " below a version of this group that committed first"));
                    return;
                }
            }
        }
        for (Read r : st.reads) {
            if (st.writes.containsKey(r.key())) {
                continue; // locked and checked when locked (Alg. 2, l. 2)
            }
            String why = renew(t, r.key(), r.chain().latestCommitted(), r.version(), r.rts(), m.ts());
            if (why != null) {
                k.abort(AbortReason.conflict(why));
                return;
            }
        }
        for (SundialMessages.Renewal n : m.renewals()) {
            if (n.ds() == services.dsIndex()) {
                SundialMessages.Renewed r = renewCached(t.id(), n.key(), n.writer(), n.writeSeq(), m.ts());
                t.report(level, r);
                if (!r.ok()) {
                    k.abort(AbortReason.conflict(r.why()));
                    return;
                }
            }
        }
        st.prepared = true;
        k.proceed();
    }

    /**
     * {@code renew_lease} (Alg. 2, l. 12–17) of a read of {@code read} whose lease was known to end at {@code rts},
     * for a transaction at {@code cts}; {@code cur} is the key's latest committed version. Null if the read is valid
     * at {@code cts} (the lease extended if needed), else why not.
     */
    private String renew(DsTxn t, Key key, Version cur, Version read, long rts, long cts) {
        if (cts <= rts) {
            return null;
        }
        if (cur != read) {
            return "sundial: lease renewal failed: wts changed on " + key;
        }
        if (rts(key, cur) >= cts) {
            return null;
        }
        DsTxn holder = lockTable.exclusiveHolder(key);
        if (holder != null && holder != t) {
            return "sundial: lease renewal failed: " + key + " is locked by another transaction";
        }
        if (tables.tryExtend(key.table(), cts)) {
            leases.raiseFloor(tables.rts(key.table()));
        } else if (cur == null) {
            leases.extendAbsent(key, cts);
        } else {
            leases.extend(cur, cts);
        }
        return null;
    }

    @Override
    public void finish(DsTxn t, Txn st, boolean committed, Object commitMeta) {
        if (committed && commitMeta instanceof SundialMessages.CommitTs c) {
            for (Map.Entry<Key, Version> e : st.writes.entrySet()) {
                leases.install(e.getValue(), c.ts());
                leases.clearAbsent(e.getKey());
                tables.written(e.getKey().table(), c.ts());
                if (fences != null) {
                    fences.committed(e.getKey(), e.getValue(), st.overwrote.contains(e.getKey()));
                }
            }
        }
        for (Key key : st.lockedKeys) {
            tables.unlocked(key.table());
        }
        lockTable.releaseAll(t, st.locks);
        for (Key key : st.readKeys) {
            readers.remove(key, t);
        }
        st.prepared = false;
    }

    /**
     * A read the coordinator served from its cache of a transaction that has no other business here: renew its lease
     * (Sundial §4.1, Alg. 2 with a cache) and answer.
     */
    @Override
    public void onMessage(NodeId from, Object payload) {
        if (payload instanceof SundialMessages.Renew r) {
            services.send(from, node.id(), renewCached(r.txnId(), r.key(), r.writer(), r.writeSeq(), r.cts()));
        } else if (payload instanceof SundialMessages.Fenced f && fences != null) {
            fences.answered(from, f);
        }
    }

    /**
     * Renews, to {@code cts}, the lease of {@code key}'s version by {@code writer} (its {@code writeSeq}-th write) that
     * transaction {@code txnId} read from its coordinator's cache: the version must still be the latest committed
     * one, and its key locked by no one (the transaction never locked a key it read from the cache).
     */
    private SundialMessages.Renewed renewCached(long txnId, Key key, long writer, int writeSeq, long cts) {
        VersionChain chain = services.find(key);
        Version cur = chain == null ? null : chain.latestCommitted();
        String why;
        if (cur == null || cur.writer() != writer || cur.writeSeq() != writeSeq) {
            why = "sundial: lease renewal failed: wts changed on " + key + " (cached read)";
        } else {
            why = renew(null, key, cur, cur, -1, cts);
            if (why != null) {
                why += " (cached read)";
            }
        }
        int table = key.table();
        return new SundialMessages.Renewed(txnId, key, writer, writeSeq, why == null, why,
                cur == null ? -1 : rts(key, cur), tables.wts(table), tables.rts(table));
    }

    /**
     * Garbage collection (docs/cluster.md, "Garbage collection"): without the cache a read returns the latest
     * committed version, so the default (confirm at once) holds. With it a coordinator may serve a version
     * overwritten here since (valid at a logical time in its lease), so this node confirms once every coordinator's
     * cache dropped the versions older than {@code written} ({@link CacheFences}).
     */
    @Override
    public void confirmGc(List<Version> written, Runnable confirmed) {
        if (fences == null) {
            confirmed.run();
        } else {
            fences.confirm(written, confirmed);
        }
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
        lockTable.rebind(n);
    }
}
