package org.tebaldi.core.cc;

import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;

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
     * Whether the cluster logs commits durably (dissertation §4.5.4): a transaction's outcome then survives a crash
     * only in the logs of the data servers it took part at, so one that reached none (every read answered at the
     * coordinator, {@link ServesReads#serveRead}) would leave no trace to recover. False by default.
     */
    default boolean durable() {
        return false;
    }
}
