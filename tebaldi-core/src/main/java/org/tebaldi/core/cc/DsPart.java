package org.tebaldi.core.cc;

import org.tebaldi.core.storage.Version;

/**
 * The data-server half of one CC node (dissertation §4.3.1, §4.5.1): one instance per (tree node, data server).
 * All calls come from the data server's actor thread. Methods have do-nothing defaults so a mechanism overrides
 * only the phases it takes part in.
 */
public interface DsPart {
    /**
     * Execution phase, top-down pass: lock, wait (park {@code k}) or abort. Call {@code k} exactly once.
     */
    default void execute(DsTxn t, OpContext op, Continuation k) {
        k.proceed();
    }

    /**
     * Execution phase, bottom-up read-version chain (Fig 4.5): given the child's proposal (for a leaf: the
     * transaction's own write, or null), return the version this node lets the read return, or null for "no
     * visible version" (the framework then reads the latest committed version if the root returns null).
     */
    default Version chooseRead(DsTxn t, OpContext op, Version proposal) {
        return proposal;
    }

    /** Execution phase, bottom-up: after the operation; report dependencies with {@link OpContext#dependOn}. */
    default void afterOp(DsTxn t, OpContext op) {
    }

    /**
     * Validation phase at this server, bottom-up (leaf first); the dependencies reported by lower levels are in
     * {@link DsTxn#dependencies()}. Call {@code k} exactly once, possibly after waiting.
     */
    default void validate(DsTxn t, Continuation k) {
        k.proceed();
    }

    /**
     * Commit phase, leaf first, all levels in one atomic step; the transaction's versions are already marked
     * committed.
     *
     * @param meta what this level's TC part sent with the commit ({@link TcPart#commitMeta}), or null
     */
    default void commit(DsTxn t, Object meta) {
    }

    /** Abort: release everything held for {@code t}; its versions are already removed. */
    default void abort(DsTxn t) {
    }

    /**
     * Garbage collection (dissertation §4.5.3): every transaction of one GC epoch finished at this server, and
     * {@code written} are the versions its committed transactions wrote here. Call {@code confirmed} once this node
     * will never order an ongoing or future transaction before any of their writers — so that no read it allows
     * returns a version older than one of them; the data server then prunes the versions those overwrote. A
     * mechanism that orders every new transaction after the committed ones (locking: a finished transaction holds
     * nothing) confirms at once, the default; one that hands out old snapshots or timestamps confirms once its
     * oldest running snapshot is newer (e.g. SSI, TSO: the timestamp service's watermark above the versions'
     * stamps). Never calling it only keeps the versions.
     */
    default void confirmGc(java.util.List<Version> written, Runnable confirmed) {
        confirmed.run();
    }

    /** A mechanism-specific message addressed to this node at this server ({@link CcEnvelope}). */
    default void onMessage(org.tebaldi.core.runtime.NodeId from, Object payload) {
    }
    /**
     * Online update (dissertation §5.5.2): the tree around this node changed — a new subtree was added below it or
     * an old one retired — and {@code node} is this node (same id, mechanism and options) in the new tree. A part
     * that keeps its node must switch to it, so group relations cover the new leaves. Only called for a node whose
     * children stayed the same or were only appended to, so child indices keep their meaning.
     */
    default void rebind(org.tebaldi.core.tree.CcNode node) {
    }
}
