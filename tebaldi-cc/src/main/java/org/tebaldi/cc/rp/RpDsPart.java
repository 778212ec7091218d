package org.tebaldi.cc.rp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DependencyWaits;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.lock.LockMode;
import org.tebaldi.core.cc.lock.LockTable;
import org.tebaldi.core.cc.lock.TxnLocks;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;

/**
 * DS part of runtime pipelining (dissertation §4.4.2): step-level locks — nexus locks tagged with the step of the
 * key's table, released when the transaction moves past that step rather than at commit; the accesses of
 * transactions that released a step but have not committed are remembered per key, so a later conflicting access
 * depends on them (reported per operation, as RP's parent needs); the read rule "accept the child's proposal if
 * it is a write from the transaction's group that has not step-committed, else the latest step-committed value";
 * validation delays commit until the dependencies (its own and the child's) have committed.
 */
final class RpDsPart implements DsPart<RpDsPart.Steps> {
    /** A transaction's state at this server: its step locks, what it accessed, the last step it released. */
    static final class Steps {
        final TxnLocks locks = new TxnLocks();
        final Map<Key, LockMode> accessed = new HashMap<>(4);
        int released = -1;
    }

    /** A step-committed but uncommitted access. */
    private record Access(DsTxn txn, LockMode mode) {
    }

    private CcNode node;
    private final DsServices services;
    private final int level;
    private final RpPlan plan;
    private final LockTable locks;
    private final HashMap<Key, List<Access>> recent = new HashMap<>();

    RpDsPart(CcNode node, DsServices services, long timeoutMicros) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.plan = RpPlan.of(node, services.database());
        this.locks = new LockTable(node, services, timeoutMicros, false);
    }

    @Override
    public Steps newState(DsTxn t) {
        return new Steps();
    }

    /** The request carries the step the transaction is in: the locks of the steps before it are released. */
    @Override
    public void onRequest(DsTxn t, Steps st) {
        RpMessages.Meta m = t.meta(level, RpMessages.Meta.class);
        if (m != null && m.step() - 1 > st.released) {
            release(t, st, m.step() - 1);
        }
    }

    private int stepOf(Key key) {
        int s = plan.stepOf(key.table());
        return s < 0 ? Integer.MAX_VALUE : s; // no step: held to commit, like 2PL
    }

    @Override
    public void execute(DsTxn t, Steps st, OpContext op, Continuation k) {
        LockMode mode = op.op().kind().exclusive() ? LockMode.X : LockMode.S;
        st.accessed.merge(op.key(), mode, LockMode::max);
        locks.acquire(t, st.locks, op.key(), mode, stepOf(op.key()), k);
    }

    private boolean sameGroup(DsTxn t, long txn, int leaf, long instance) {
        return node.sameGroup(t.id(), t.leaf(), t.instance(), txn, leaf, instance);
    }

    private boolean stepCommitted(Version v, Key key) {
        if (v.committed()) {
            return true;
        }
        DsTxn w = services.txn(v.writer());
        Steps ws = w == null ? null : w.state(level, Steps.class);
        return ws != null && ws.released >= plan.stepOf(key.table()) && plan.stepOf(key.table()) >= 0;
    }

    @Override
    public Version chooseRead(DsTxn t, Steps st, OpContext op, Version proposal) {
        if (proposal != null && (proposal.writer() == t.id() || (!proposal.committed()
                && sameGroup(t, proposal.writer(), proposal.writerLeaf(), proposal.writerInstance())
                && !stepCommitted(proposal, op.key())))) {
            return proposal;
        }
        VersionChain chain = op.chain();
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (v.committed() || (node.contains(v.writerLeaf()) && stepCommitted(v, op.key()))) {
                return v;
            }
        }
        return null;
    }

    @Override
    public void afterOp(DsTxn t, Steps st, OpContext op) {
        boolean writes = op.op().kind().exclusive();
        for (Access a : recent.getOrDefault(op.key(), List.of())) {
            if (a.txn() != t && !a.txn().finished() && (writes || a.mode() == LockMode.X)
                    && !sameGroup(t, a.txn().id(), a.txn().leaf(), a.txn().instance())) {
                op.dependOn(a.txn());
            }
        }
    }

    /** Releases {@code t}'s locks of steps up to {@code upTo}; its accesses there become step-committed. */
    private void release(DsTxn t, Steps st, int upTo) {
        st.released = upTo;
        for (Key k : locks.releaseUpTo(t, st.locks, upTo)) {
            recent.computeIfAbsent(k, x -> new ArrayList<>(2)).add(new Access(t, st.accessed.get(k)));
        }
    }

    @Override
    public void validate(DsTxn t, Steps st, Continuation k) {
        DependencyWaits.awaitLevels(services, t, level, Integer.MAX_VALUE, k);
    }

    @Override
    public void finish(DsTxn t, Steps st, boolean committed, Object commitMeta) {
        locks.releaseAll(t, st.locks);
        for (Key k : st.accessed.keySet()) {
            List<Access> l = recent.get(k);
            if (l != null) {
                l.removeIf(a -> a.txn() == t);
                if (l.isEmpty()) {
                    recent.remove(k);
                }
            }
        }
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (payload instanceof RpMessages.Release r) {
            DsTxn t = services.txn(r.txnId());
            Steps st = t == null || t.finished() ? null : t.state(level, Steps.class);
            if (st != null && r.upTo() > st.released) {
                release(t, st, r.upTo());
            }
        }
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
        locks.rebind(n);
    }
}
