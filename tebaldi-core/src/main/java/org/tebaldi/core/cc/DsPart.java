package org.tebaldi.core.cc;

import org.tebaldi.core.storage.Version;

/**
 * The data-server half of one CC node (dissertation §4.3.1, §4.5.1): one instance per (tree node, data server),
 * called only from the data server's actor thread. {@code S} is the per-transaction state the part keeps at this
 * server ({@link Void} if none): created by {@link #newState} at the transaction's first request here and handed
 * to every call about it. Methods have do-nothing defaults, so a mechanism overrides only the phases it takes part
 * in (docs/architecture.md, "A phase's path through the tree").
 *
 * <p><b>What a child must report to its parent.</b> A parent that adopts its children's order (2PL, SSI, TSO, RP as
 * inner nodes, dissertation §4.2.2) learns the child's order only from reported dependencies: whenever a part
 * orders a transaction T after a live transaction U of the same subtree, it reports "T depends on U" — with
 * {@link OpContext#dependOn} during the operation that creates the order, or {@link DsServices#addDependency} when
 * the order is discovered outside T's operation (e.g. a later writer finds T's read). When the report is due
 * depends on the parent: runtime pipelining needs each dependency in the reply of the operation that created it
 * (it decides step entry on them), 2PL, SSI and TSO need them by the end of validation at this server. A child that
 * settles its order only after concurrent transactions finish (SSI) cannot serve a parent that needs per-operation
 * reports; such pairs are forbidden in the composability rules, with the reason. Orders on transactions that
 * already finished need no report (they are settled).
 */
public interface DsPart<S> {
    /** Fresh per-transaction state for {@code t} at its first request here; null if the part keeps none. */
    default S newState(DsTxn t) {
        return null;
    }

    /**
     * A request of {@code t} (execute or validate) arrived here, before any pass over the levels; its metadata is
     * readable with {@link DsTxn#meta}. E.g. runtime pipelining releases the steps the transaction left; TSO and
     * SSI learn its timestamps.
     */
    default void onRequest(DsTxn t, S st) {
    }

    /** Execution phase, top-down pass: lock, wait (park {@code k}) or abort. Call {@code k} exactly once. */
    default void execute(DsTxn t, S st, OpContext op, Continuation k) {
        k.proceed();
    }

    /**
     * Execution phase, bottom-up read-version chain (Fig 4.5): given the child's proposal (for a leaf: the
     * transaction's own write, or null), return the version this node lets the read return, or null for "no
     * visible version" (the framework then reads the latest committed version if the root returns null), or — at
     * the root only — {@link Version#ABSENT} for "the row does not exist in this transaction's view".
     */
    default Version chooseRead(DsTxn t, S st, OpContext op, Version proposal) {
        return proposal;
    }

    /** Execution phase, bottom-up: after the operation; report dependencies with {@link OpContext#dependOn}. */
    default void afterOp(DsTxn t, S st, OpContext op) {
    }

    /**
     * Validation phase at this server, bottom-up (leaf first); the dependencies reported by lower levels are in
     * {@link DsTxn#dependencies()}. Call {@code k} exactly once, possibly after waiting.
     */
    default void validate(DsTxn t, S st, Continuation k) {
        k.proceed();
    }

    /**
     * The transaction ended here. Committed: leaf first, all levels in one atomic step, its versions already marked
     * committed, {@code commitMeta} what this level's TC part sent ({@link TcPart#commitMeta}) or null. Aborted:
     * its versions already removed, {@code commitMeta} null. Release everything held for it.
     */
    default void finish(DsTxn t, S st, boolean committed, Object commitMeta) {
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

    /**
     * Counters this part keeps for the run report, by name (e.g. {@code dst.roReads}); read from another thread
     * while the data server runs, so a part keeps them in thread-safe cells. A part dropped by a partial restart or
     * an online update takes its counts with it. Empty by default (as {@link TcPart#counters}).
     */
    default java.util.Map<String, Long> counters() {
        return java.util.Map.of();
    }

    /**
     * Reads from the nearest replica (docs/mechanisms.md "Replication"), asked of the root's part at a primary: a
     * bound {@code W} such that every transaction that commits at this data server from now on stamps its versions
     * (this node's {@link Version#stamp}) strictly above {@code W} — so a copy that applied every commit made here
     * before this call can answer snapshot reads at bounds up to {@code W} ({@link TcPart#replicaSnapshot}). Called
     * on the data server's thread; it may raise state that later writers order above (e.g. DST's claim floor).
     * {@link Long#MIN_VALUE} (the default): no such bound, nothing is served by a backup.
     */
    default long replicaFloor() {
        return Long.MIN_VALUE;
    }

    /**
     * Reads from the nearest replica, asked of the root's part at a backup when it is about to answer a snapshot
     * read: the oldest snapshot bound it may still serve now. Below it a primary may already have settled (garbage
     * collection, {@link #confirmGc}) a version the snapshot would skip — a settled version promises that no ongoing
     * or future transaction is ordered before its writer, and a snapshot read at a backup holds back no primary's
     * garbage collection. {@link Long#MIN_VALUE} (the default): no bound, e.g. when a snapshot's own batch holds back
     * the watermark garbage collection waits for.
     */
    default long replicaServeFloor() {
        return Long.MIN_VALUE;
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
