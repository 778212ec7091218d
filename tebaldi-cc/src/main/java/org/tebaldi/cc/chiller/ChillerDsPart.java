package org.tebaldi.cc.chiller;

import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.lock.DeadlockPolicy;
import org.tebaldi.core.cc.lock.LockMode;
import org.tebaldi.core.cc.lock.LockTable;
import org.tebaldi.core.cc.lock.TxnLocks;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;

/**
 * DS part of Chiller's two-region execution (§3.2–3.3). Every operation takes an S or X lock NO_WAIT (a lock that
 * cannot be granted at once aborts the transaction). Locks on hot records at the transaction's inner host are the
 * inner region's: they are released when this server votes yes (the inner region commits), the rest at the end.
 * A transaction whose inner region committed here is <em>released</em>: its hot versions, still uncommitted in the
 * store, become readable, and whoever reads or overwrites one depends on it — reported to the parent and waited for
 * before this server votes (the framework itself waits for the writers a transaction read from).
 */
final class ChillerDsPart implements DsPart<ChillerDsPart.Txn> {
    /** A transaction's locks here: the outer region's, held to the end, and the inner region's. */
    static final class Txn {
        final TxnLocks outer = new TxnLocks();
        final TxnLocks inner = new TxnLocks();
        /** True once its inner region committed here (its hot locks are released). */
        boolean released;
    }

    private final DsServices services;
    private final LockTable locks;
    private final int level;
    /** The placement's hot records (a capability of the data server, found once). */
    private final org.tebaldi.core.cc.HotRecords hot;

    ChillerDsPart(CcNode node, DsServices services) {
        this.services = services;
        this.hot = org.tebaldi.core.cc.HotRecords.of(services);
        this.level = node.depth();
        this.locks = new LockTable(node, services, Chiller.UNUSED_TIMEOUT_MICROS, DeadlockPolicy.NO_WAIT);
    }

    @Override
    public Txn newState(DsTxn t) {
        return new Txn();
    }

    /** Whether {@code t}'s operation on {@code op}'s key belongs to its inner region at this server. */
    private boolean inner(DsTxn t, OpContext op) {
        InnerHost h = t.meta(level, InnerHost.class);
        return h != null && h.server() == services.dsIndex() && hot.hot(op.key());
    }

    @Override
    public void execute(DsTxn t, Txn st, OpContext op, Continuation k) {
        if (st.released && inner(t, op)) {
            k.abort(AbortReason.error("chiller: " + op.key() + " accessed after the inner region committed"));
            return;
        }
        locks.acquire(t, inner(t, op) ? st.inner : st.outer, op.key(),
                op.op().kind().exclusive() ? LockMode.X : LockMode.S, k);
    }

    /**
     * The own write, else the newest version that is committed or written by a released transaction (an inner
     * region that committed at this server); null if none (the framework then reads the latest committed).
     */
    @Override
    public Version chooseRead(DsTxn t, Txn st, OpContext op, Version proposal) {
        if (proposal != null) {
            return proposal;
        }
        VersionChain chain = op.chain();
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (v.committed() || released(t, v) != null) {
                return v;
            }
        }
        return null;
    }

    /** The writer of {@code v} if it is a live, released transaction of {@code t}'s leaf group, else null. */
    private DsTxn released(DsTxn t, Version v) {
        DsTxn w = services.txn(v.writer());
        if (w == null || w == t || w.finished() || w.leaf() != t.leaf()) {
            return null;
        }
        Txn s = w.state(level, Txn.class);
        return s != null && s.released ? w : null;
    }

    /** Orders the transaction after the released writers whose version it read or wrote over. */
    @Override
    public void afterOp(DsTxn t, Txn st, OpContext op) {
        VersionChain chain = op.chain();
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (v.committed()) {
                break;
            }
            DsTxn w = released(t, v);
            if (w != null) {
                op.dependOn(w);
            }
        }
    }

    /**
     * The vote: the inner region commits here — its hot locks are released, so the next transaction may take them
     * while this one's outer region commits (§3.2, step 4) — then the transaction waits for the released writers it
     * depends on here, and fails if one of them aborted (only a failure can abort a released transaction).
     */
    @Override
    public void validate(DsTxn t, Txn st, Continuation k) {
        if (st.inner.held() > 0) {
            st.released = true;
            locks.releaseAll(t, st.inner);
            org.tebaldi.core.cc.EarlyRelease.mark(t); // under replication the vote waits for the backups' copy (Chiller §5)
        }
        int[] pending = {1};
        boolean[] failed = {false};
        Runnable done = () -> {
            if (--pending[0] == 0) {
                if (failed[0]) {
                    k.abort(AbortReason.conflict("chiller: a released inner region it depends on aborted"));
                } else {
                    k.proceed();
                }
            }
        };
        for (DsTxn.Dependency d : t.dependencies()) {
            if (d.level() == level && !d.on().finished()) {
                pending[0]++;
                services.awaitFinish(d.on(), committed -> {
                    failed[0] |= !committed;
                    done.run();
                });
            }
        }
        done.run();
    }

    @Override
    public void finish(DsTxn t, Txn st, boolean committed, Object commitMeta) {
        locks.releaseAll(t, st.inner);
        locks.releaseAll(t, st.outer);
    }

    @Override
    public void rebind(CcNode n) {
        locks.rebind(n);
    }
}
