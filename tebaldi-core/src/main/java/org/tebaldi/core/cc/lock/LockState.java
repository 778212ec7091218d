package org.tebaldi.core.cc.lock;

import java.util.ArrayList;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.Cancellable;

/** The lock on one key at one lock-based CC node of one data server: holders and a FIFO queue of parked requests. */
final class LockState {
    static final class Holder {
        final DsTxn txn;
        LockMode mode;
        int tag;

        Holder(DsTxn txn, LockMode mode, int tag) {
            this.txn = txn;
            this.mode = mode;
            this.tag = tag;
        }
    }

    static final class Waiter {
        final DsTxn txn;
        final LockMode mode;
        final Continuation k;
        final LockState lock;
        final long sinceMicros;
        final DsTxn blocker;
        final int tag;
        final TxnLocks mine;
        Cancellable timer;

        Waiter(DsTxn txn, LockMode mode, int tag, TxnLocks mine, Continuation k, LockState lock, long sinceMicros,
               DsTxn blocker) {
            this.tag = tag;
            this.mine = mine;
            this.txn = txn;
            this.mode = mode;
            this.k = k;
            this.lock = lock;
            this.sinceMicros = sinceMicros;
            this.blocker = blocker;
        }
    }

    final Key key;
    final ArrayList<Holder> holders = new ArrayList<>(2);
    final ArrayList<Waiter> waiters = new ArrayList<>(0);

    LockState(Key key) {
        this.key = key;
    }

    Holder holder(DsTxn t) {
        for (Holder h : holders) {
            if (h.txn == t) {
                return h;
            }
        }
        return null;
    }

    boolean removeHolder(DsTxn t) {
        for (int i = 0; i < holders.size(); i++) {
            if (holders.get(i).txn == t) {
                holders.remove(i);
                return true;
            }
        }
        return false;
    }

    boolean idle() {
        return holders.isEmpty() && waiters.isEmpty();
    }
}
