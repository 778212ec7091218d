package org.tebaldi.core.cc;

import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.AbortReason;

/** What a transaction coordinator offers its TC parts. */
public interface TcServices extends CcServices {
    /** Index of this coordinator. */
    int tcIndex();

    /** Address of the coordinator that runs transaction {@code txnId}. */
    NodeId coordinatorOf(long txnId);

    /** The live transaction with that id at this coordinator, or null. */
    TcTxn txn(long id);

    /** Index of the data server holding {@code key}. */
    int partitionOf(Key key);

    /**
     * Aborts a live transaction from outside a phase pass (e.g. a part's timer or a service's verdict); a no-op
     * if it already ended. The abort runs after the current event.
     */
    void abort(TcTxn t, AbortReason why);
}
