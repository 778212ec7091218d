package org.example.xlock;

import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.lock.DeadlockPolicy;
import org.tebaldi.core.cc.lock.LockMode;
import org.tebaldi.core.cc.lock.LockTable;
import org.tebaldi.core.cc.lock.TxnLocks;
import org.tebaldi.core.tree.CcNode;

/**
 * The data-server part of {@link ExclusiveLocking}: an X lock per operation from the framework's shared lock table
 * ({@link LockTable}), all released when the transaction ends. Its per-transaction state is the locks it holds
 * here. Data-server actor only.
 */
final class ExclusiveDsPart implements DsPart<TxnLocks> {
    private final LockTable locks;

    /** @param timeoutMicros lock-wait timeout, µs */
    ExclusiveDsPart(CcNode node, DsServices services, long timeoutMicros) {
        this.locks = new LockTable(node, services, timeoutMicros, DeadlockPolicy.TIMEOUT);
    }

    @Override
    public TxnLocks newState(DsTxn t) {
        return new TxnLocks();
    }

    /** Execution phase: an exclusive lock on the operation's key, whatever the operation. */
    @Override
    public void execute(DsTxn t, TxnLocks held, OpContext op, Continuation k) {
        locks.acquire(t, held, op.key(), LockMode.X, k);
    }

    @Override
    public void finish(DsTxn t, TxnLocks held, boolean committed, Object commitMeta) {
        locks.releaseAll(t, held);
    }
}
