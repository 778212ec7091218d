package org.tebaldi.cc.rp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.Continuation;
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
 * transactions that released a step but have not committed are remembered per key, in release order (the order the
 * step locks imposed), so a later conflicting access depends on them (reported per operation, as RP's parent needs);
 * the read rule "accept the child's proposal if it is a write from the transaction's group that has not
 * step-committed, else the latest step-committed value"; validation delays commit until the dependencies (its own
 * and the child's) have committed.
 *
 * <p><b>Dependency sets</b> ({@code dependencies} option, {@link DependencyRule}): by default the direct dependencies
 * of §4.3 — for a read, the last writer of the key; for a write, the last writer and the readers since — among the
 * step-committed accesses of other groups (a writer of the transaction's own group stops the search: the child
 * orders it after that writer, which depends on everything before it; a reader of its own group is skipped). A predecessor that aborts hands its own predecessors at that
 * key on to the transactions that depended on it there: its version is gone, so they now follow what came before
 * it. {@code all}: every uncommitted step-committed conflicting access (the transitive closure, larger).
 */
final class RpDsPart implements DsPart<RpDsPart.Steps> {
    /** A transaction's state at this server: its step locks, what it accessed, the last step it released. */
    static final class Steps {
        final TxnLocks locks = new TxnLocks();
        final Map<Key, LockMode> accessed = new HashMap<>(4);
        int released = -1;
        /** Direct predecessors (other groups, live when found) per key: what its abort hands on. */
        Map<Key, List<DsTxn>> preds;
        /** Transactions that depend on this one at a key, with the key. */
        List<Dependent> dependents;
        /** Its dependencies found here, with the progress last reported of each ({@link RpMessages.Known}). */
        List<DsTxn> depsHere;
        int[] reportedReleased;
    }

    /** {@code txn} depends on the owner at {@code key}. */
    private record Dependent(DsTxn txn, Key key) {
    }

    /** An uncommitted transaction's access to a key (its strongest mode there). */
    private static final class Access {
        final DsTxn txn;
        LockMode mode;

        Access(DsTxn txn, LockMode mode) {
            this.txn = txn;
            this.mode = mode;
        }

        DsTxn txn() {
            return txn;
        }

        LockMode mode() {
            return mode;
        }
    }

    private CcNode node;
    private final DsServices services;
    private final int level;
    private final RpPlan plan;
    private final LockTable locks;
    private final DependencyRule dependencyRule;
    private final boolean handOn;
    /**
     * Per key, the accesses of live transactions in the order they were made here: the order the conflicts impose —
     * the step locks serialize conflicting accesses of different groups, and accesses of one group are ordered as
     * its child lets them happen (its nexus locks are compatible at this node, so their releases here need not follow
     * that order: a list in release order would misplace them).
     */
    private final HashMap<Key, List<Access>> recent = new HashMap<>();
    private final java.util.concurrent.atomic.LongAdder dependencies = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder handedOn = new java.util.concurrent.atomic.LongAdder();

    RpDsPart(CcNode node, DsServices services, long timeoutMicros, DependencyRule dependencyRule, boolean handOn,
             org.tebaldi.core.cc.lock.DeadlockPolicy deadlock) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.plan = RpPlan.of(node, services.database());
        this.locks = new LockTable(node, services, timeoutMicros, deadlock);
        this.dependencyRule = dependencyRule;
        this.handOn = handOn;
    }

    @Override
    public Steps newState(DsTxn t) {
        return new Steps();
    }

    /**
     * The request carries the last step the transaction finished: its locks up to that step are released here (a
     * validation request after the end of its execution carries the last step: every step).
     */
    @Override
    public void onRequest(DsTxn t, Steps st) {
        RpMessages.Meta m = t.meta(level, RpMessages.Meta.class);
        if (m != null && m.released() > st.released) {
            release(t, st, m.released());
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

    private boolean sameGroup(DsTxn a, DsTxn b) {
        return node.sameGroup(a.id(), a.leaf(), a.instance(), b.id(), b.leaf(), b.instance());
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
        List<Access> l = recent.computeIfAbsent(op.key(), x -> new ArrayList<>(2));
        dependencies(t, st, op, l, writes);
        reportProgress(t, st);
        for (Access a : l) {
            if (a.txn() == t) {
                if (writes) {
                    a.mode = LockMode.X;
                }
                return;
            }
        }
        l.add(new Access(t, writes ? LockMode.X : LockMode.S));
    }

    /**
     * The operation's dependencies among the key's earlier accesses {@code l}. A conflicting access of another group
     * has released its step here (the step locks made this one wait for it).
     */
    private void dependencies(DsTxn t, Steps st, OpContext op, List<Access> l, boolean writes) {
        if (dependencyRule == DependencyRule.ALL) {
            for (Access a : l) {
                if (a.txn() != t && !a.txn().finished() && (writes || a.mode() == LockMode.X) && !sameGroup(t, a.txn())) {
                    op.dependOn(a.txn());
                    dependencies.increment();
                }
            }
            return;
        }
        // direct (§4.3): back from the newest step-committed access to the last writer; a write depends on the
        // readers since too, a read only on that writer. An access of the transaction's own group is ordered by the
        // child: a writer of the group stops the search (it depends on everything before it), a reader of the group
        // is skipped (readers do not order each other, so it covers no other reader)
        for (int i = l.size() - 1; i >= 0; i--) {
            Access a = l.get(i);
            boolean writer = a.mode() == LockMode.X;
            if (a.txn() == t || !writer && !writes) {
                continue;
            }
            if (a.txn().finished() || sameGroup(t, a.txn())) {
                if (writer) {
                    break;
                }
                continue;
            }
            depend(t, st, op, a.txn());
            if (writer) {
                break;
            }
        }
    }

    /** Reports that {@code t} depends on {@code on} at the operation's key and remembers it for a hand-on. */
    private void depend(DsTxn t, Steps st, OpContext op, DsTxn on) {
        op.dependOn(on);
        dependencies.increment();
        remember(t, st, op.key(), on);
        if (st.depsHere == null) {
            st.depsHere = new ArrayList<>(2);
            st.reportedReleased = new int[2];
        }
        if (!st.depsHere.contains(on)) {
            if (st.depsHere.size() == st.reportedReleased.length) {
                st.reportedReleased = java.util.Arrays.copyOf(st.reportedReleased, st.reportedReleased.length * 2);
            }
            st.reportedReleased[st.depsHere.size()] = Integer.MIN_VALUE;
            st.depsHere.add(on);
        }
    }

    /**
     * With every reply of {@code t} here: the progress of its dependencies found here, where it moved since the last
     * report ({@link RpMessages.Known}; existing replies carry it, so a coordinator learns it without a message).
     */
    private void reportProgress(DsTxn t, Steps st) {
        if (st.depsHere == null) {
            return;
        }
        for (int i = 0; i < st.depsHere.size(); i++) {
            DsTxn d = st.depsHere.get(i);
            Steps ds = d.finished() ? null : d.state(level, Steps.class);
            int released = ds == null ? Integer.MAX_VALUE : ds.released;
            if (released > st.reportedReleased[i]) {
                st.reportedReleased[i] = released;
                t.report(level, new RpMessages.Known(d.id(), ds == null ? Progress.DONE : released, ds == null));
            }
        }
    }

    private void remember(DsTxn t, Steps st, Key key, DsTxn on) {
        if (!handOn) {
            return;
        }
        Steps os = on.state(level, Steps.class);
        if (os == null) {
            return;
        }
        if (st.preds == null) {
            st.preds = new HashMap<>(4);
        }
        List<DsTxn> before = st.preds.computeIfAbsent(key, x -> new ArrayList<>(2));
        if (before.contains(on)) {
            return; // known already (a hand-on may find a predecessor twice); each pair once keeps the lists small
        }
        before.removeIf(DsTxn::finished);
        before.add(on);
        if (os.dependents == null) {
            os.dependents = new ArrayList<>(2);
        }
        os.dependents.removeIf(d -> d.txn().finished());
        os.dependents.add(new Dependent(t, key));
    }

    /** Releases {@code t}'s locks of steps up to {@code upTo}; its accesses there become step-committed. */
    private void release(DsTxn t, Steps st, int upTo) {
        st.released = upTo;
        locks.releaseUpTo(t, st.locks, upTo);
    }

    /**
     * Delays commit until every dependency reported here at this level or below has finished — checked again after
     * each finish, since an aborting predecessor may hand its own predecessors on meanwhile.
     */
    @Override
    public void validate(DsTxn t, Steps st, Continuation k) {
        RpCommitWait.await(services, t, level, k);
    }

    @Override
    public void finish(DsTxn t, Steps st, boolean committed, Object commitMeta) {
        locks.releaseAll(t, st.locks);
        for (Map.Entry<Key, LockMode> e : st.accessed.entrySet()) {
            List<Access> l = recent.get(e.getKey());
            if (l == null) {
                continue;
            }
            int at = -1;
            for (int i = 0; i < l.size() && at < 0; i++) {
                at = l.get(i).txn() == t ? i : -1;
            }
            if (at >= 0 && committed && e.getValue() == LockMode.X && dependencyRule == DependencyRule.DIRECT) {
                l.subList(0, at + 1).clear(); // everything before a committed writer is ordered before it: settled
            } else if (at >= 0) {
                l.remove(at);
            }
            if (l.isEmpty()) {
                recent.remove(e.getKey());
            }
        }
        if (!committed && st.dependents != null && st.preds != null) {
            handOn(t, st);
        }
        st.dependents = null;
        st.preds = null;
        // the progress reports are over; kept, each finished transaction's list would hold its predecessors, and
        // theirs, so that one live transaction reached every earlier one with its writes (at 200 TPC-C clients the
        // heap after a collection grew 60 MB/s: docs/performance.md)
        st.depsHere = null;
        st.reportedReleased = null;
    }

    /**
     * {@code t} aborted: each transaction that depended on it at a key now follows {@code t}'s predecessors there
     * (its version is gone from the key's order), so they become its dependencies.
     */
    private void handOn(DsTxn t, Steps st) {
        for (Dependent d : st.dependents) {
            List<DsTxn> before = st.preds.get(d.key());
            if (before == null || d.txn().finished()) {
                continue;
            }
            Steps ds = d.txn().state(level, Steps.class);
            for (DsTxn w : before) {
                if (w != d.txn() && !w.finished() && !sameGroup(d.txn(), w) && ds != null) {
                    services.addDependency(d.txn(), w, level);
                    remember(d.txn(), ds, d.key(), w);
                    handedOn.increment();
                }
            }
        }
    }

    /**
     * {@code rp.dependencies}: dependencies this node reported at this server (per operation, §4.3);
     * {@code rp.handedOn}: dependencies an aborted predecessor handed on.
     */
    @Override
    public Map<String, Long> counters() {
        return Map.of("rp.dependencies", dependencies.sum(), "rp.handedOn", handedOn.sum());
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
