package org.tebaldi.core.cc;

import java.util.List;

/**
 * A transaction as seen by the DS parts of one data server: its {@link TxnView}, its outcome at this server,
 * the dependencies reported here so far, and the per-level metadata its TC parts sent
 * ({@link TcPart#meta}).
 */
public interface DsTxn extends TxnView {
    /** True once the commit or abort of this transaction was applied at this server. */
    boolean finished();

    /** True once its commit was applied at this server. */
    boolean committed();

    /** Dependencies reported at this server (dissertation §4.3.1: "dependency set"), in report order. */
    List<Dependency> dependencies();

    /** Metadata from the TC part at {@code level} (e.g. an SSI start timestamp), or null. */
    Object meta(int level);

    /**
     * Sends {@code info} from the DS part at {@code level} to the same level's TC part: it travels with the next
     * reply to the coordinator (execute or validate) and arrives through {@link TcPart#onReport} before that
     * reply's bottom-up pass. Used for facts only the data server sees (e.g. SSI anti-dependency edges).
     */
    void report(int level, Object info);

    /**
     * Marks the transaction as unable to commit here: its next operation or its validation at this server fails
     * with {@code why} (retryable).
     */
    void doom(String why);

    /**
     * A dependency of the owning transaction on {@code on}, reported by the part at {@code level}: {@code on}
     * is ordered before the owner, and both are in the subtree of the node at {@code level}.
     */
    record Dependency(DsTxn on, int level) {
    }
}
