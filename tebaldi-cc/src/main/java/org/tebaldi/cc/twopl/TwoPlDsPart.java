package org.tebaldi.cc.twopl;

import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DependencyWaits;
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

/**
 * DS part of 2PL (dissertation §4.4.1): no start action; locks in the top-down pass of execution (S for reads,
 * X for writes and read-for-update); the read rule (see {@link #chooseRead}); validation delays commit until the
 * in-group dependencies reported by the child have committed (the nexus lock release order, §3.3.2); locks are
 * released when the transaction finishes. Its per-transaction state is the set of locks it holds here.
 */
final class TwoPlDsPart implements DsPart<TxnLocks> {
    private CcNode node;
    private final DsServices services;
    private final LockTable locks;
    private final int level;

    TwoPlDsPart(CcNode node, DsServices services, long timeoutMicros, DeadlockPolicy deadlock) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.locks = new LockTable(node, services, timeoutMicros, deadlock);
    }

    /** The lock table, for {@link WoundWaitDsPart}, which locks through it and wounds on top. */
    LockTable locks() {
        return locks;
    }

    @Override
    public TxnLocks newState(DsTxn t) {
        return new TxnLocks();
    }

    @Override
    public void execute(DsTxn t, TxnLocks held, OpContext op, Continuation k) {
        locks.acquire(t, held, op.key(), op.op().kind().exclusive() ? LockMode.X : LockMode.S, k);
    }

    /**
     * The read rule of §4.4.1, refined for multiversion children: 2PL must make the other groups' committed writes
     * visible (it ordered them before this transaction through its locks), but ordering within the child group is
     * the child's. So it keeps the child's proposal unless another group committed a newer version, which it returns
     * then; with no proposal, the latest committed version. (The dissertation's wording — "else the latest
     * committed value" — also overrides a TSO or SSI child's older proposal with a newer version of the child's own
     * group, which breaks the child's order; for single-version children both rules agree.)
     */
    @Override
    public Version chooseRead(DsTxn t, TxnLocks held, OpContext op, Version proposal) {
        VersionChain chain = op.chain();
        if (proposal == null) {
            return chain.latestCommitted();
        }
        int from = chain.indexOf(proposal);
        for (int i = chain.size() - 1; i > from; i--) {
            Version v = chain.get(i);
            if (v.committed() && v.writer() != t.id() && !node.sameGroup(t.id(), t.leaf(), t.instance(),
                    v.writer(), v.writerLeaf(), v.writerInstance())) {
                return v;
            }
        }
        if (proposal.committed() || proposal.writer() == t.id() || node.sameGroup(t.id(), t.leaf(), t.instance(),
                proposal.writer(), proposal.writerLeaf(), proposal.writerInstance())) {
            return proposal;
        }
        return chain.latestCommitted();
    }

    @Override
    public void validate(DsTxn t, TxnLocks held, Continuation k) {
        if (node.isLeaf()) {
            k.proceed();
        } else {
            DependencyWaits.awaitLowerLevels(services, t, level, k);
        }
    }

    @Override
    public void finish(DsTxn t, TxnLocks held, boolean committed, Object commitMeta) {
        locks.releaseAll(t, held);
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
        locks.rebind(n);
    }
}
