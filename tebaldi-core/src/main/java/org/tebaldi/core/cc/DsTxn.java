package org.tebaldi.core.cc;

import java.util.List;

/**
 * A transaction as the DS parts of one data server see it: its {@link TxnView}, its outcome at this server, the
 * dependencies reported here so far, and the per-level metadata its TC parts sent ({@link TcPart#meta}). A data
 * server's transactions may offer capabilities besides (e.g. {@link EarlyRelease}).
 */
public interface DsTxn extends TxnView {
    /** True once the commit or abort of this transaction was applied at this server. */
    boolean finished();

    /** True once its commit was applied at this server. */
    boolean committed();

    /** Dependencies reported at this server (dissertation §4.3.1: "dependency set"), in report order. */
    List<Dependency> dependencies();

    /**
     * The metadata the TC part at {@code level} sent with the latest request ({@link TcPart#meta}), if it is of
     * {@code type}; else null.
     */
    <M> M meta(int level, Class<M> type);

    /**
     * Sends {@code report} from the DS part at {@code level} to the same level's TC part: it travels with the next
     * reply to the coordinator (execute or validate) and arrives through {@link TcPart#onReport} before that
     * reply's bottom-up pass. For facts only the data server sees (e.g. SSI's anti-dependency edges).
     */
    void report(int level, CcReport report);

    /**
     * Marks the transaction as unable to commit here: its next operation or its validation at this server fails
     * with {@code why} (retryable). The first reason given is kept.
     */
    void doom(String why);

    /**
     * A dependency of the owning transaction on {@code on}, reported by the part at {@code level}: {@code on}
     * is ordered before the owner, and both are in the subtree of the node at {@code level}.
     */
    record Dependency(DsTxn on, int level) {
    }
}
