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

    /**
     * Runs {@code task} on this coordinator once everything it recorded in the history so far has been handed over
     * to the streamed check (docs/architecture.md, "Verification": each node hands its records over every period,
     * on its own); right after the current event when the history is not streamed, the default. For a promise
     * that holds only once the check has what this coordinator recorded — Sundial's answer to a data server's GC
     * confirmation (docs/mechanisms.md, "TicToc and Sundial"): the reads its cache served before are recorded here,
     * and the data server reports the newer versions final only after the answer.
     */
    default void afterHistoryHandOver(Runnable task) {
        later(task);
    }
}
