package org.tebaldi.cc.twopl;

import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DependencyWaits;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.lock.LockMode;
import org.tebaldi.core.cc.lock.LockTable;
import org.tebaldi.core.cc.lock.TxnLocks;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcNode;

/**
 * DS part of 2PL (dissertation §4.4.1): no start action; locks in the top-down pass of execution (S for reads,
 * X for writes and read-for-update); the read rule "accept the child's proposal if it is an uncommitted value
 * from its group, else return the latest committed value"; validation delays commit until the in-group
 * dependencies reported by the child have committed (the nexus lock release order, §3.3.2); locks are
 * released at commit or abort.
 */
final class TwoPlDsPart implements DsPart {
    private final CcNode node;
    private final DsServices services;
    private final LockTable locks;
    private final int level;

    TwoPlDsPart(CcNode node, DsServices services, long timeoutMicros, boolean waitDie) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.locks = new LockTable(node, services, timeoutMicros, waitDie);
    }

    private TxnLocks mine(DsTxn t) {
        TxnLocks m = (TxnLocks) t.state(level);
        if (m == null) {
            m = new TxnLocks();
            t.setState(level, m);
        }
        return m;
    }

    @Override
    public void execute(DsTxn t, OpContext op, Continuation k) {
        locks.acquire(t, mine(t), op.key(), op.op().kind().exclusive() ? LockMode.X : LockMode.S, k);
    }

    @Override
    public Version chooseRead(DsTxn t, OpContext op, Version proposal) {
        if (proposal != null && !proposal.committed()
                && (proposal.writer() == t.id() || node.sameGroup(t.id(), t.leaf(), t.instance(),
                proposal.writer(), proposal.writerLeaf(), proposal.writerInstance()))) {
            return proposal;
        }
        return op.chain().latestCommitted();
    }

    @Override
    public void validate(DsTxn t, Continuation k) {
        if (node.isLeaf()) {
            k.proceed();
        } else {
            DependencyWaits.awaitLowerLevels(services, t, level, k);
        }
    }

    @Override
    public void commit(DsTxn t, Object meta) {
        release(t);
    }

    @Override
    public void abort(DsTxn t) {
        release(t);
    }

    private void release(DsTxn t) {
        TxnLocks m = (TxnLocks) t.state(level);
        if (m != null) {
            locks.releaseAll(t, m);
        }
    }

    /** Keys with lock state at this node (0 when idle: no leaked locks). */
    int lockedKeys() {
        return locks.size();
    }
}
