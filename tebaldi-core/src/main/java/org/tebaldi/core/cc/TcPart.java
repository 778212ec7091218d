package org.tebaldi.core.cc;

import java.util.List;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Op;

/**
 * The coordinator half of one CC node (dissertation §4.3.1, §4.5.1): one instance per (tree node, coordinator),
 * called only from the coordinator's actor thread. {@code S} is the per-transaction state the part keeps
 * ({@link Void} if none): created by {@link #newState} when the transaction starts and handed to every call about
 * that transaction. Every method has a do-nothing default, so a mechanism overrides only the phases it takes part
 * in. The order of calls for one transaction (docs/architecture.md, "A phase's path through the tree"):
 * <ol>
 *   <li>start: {@link #start}, top-down over the path;</li>
 *   <li>execute, per operation: {@link #needsPriorOps}, then {@link #beforeOp} top-down; the request goes to the
 *       data server with every level's {@link #meta}; the reply's reports reach {@link #onReport};</li>
 *   <li>validate: {@link #beforeValidation} top-down, then one validation request per participant (with
 *       {@link #meta} again); once all voted yes, {@link #validate} bottom-up;</li>
 *   <li>commit: {@link #commitMeta} of every level, then {@link #finish} leaf first; or {@link #finish} with
 *       {@code committed = false} at any point the transaction aborts.</li>
 * </ol>
 * Continuation-taking methods must call exactly one of {@code proceed}/{@code abort} exactly once, now or later.
 * Hooks only some mechanisms need are capability interfaces a part may implement besides ({@link ServesReads},
 * {@link KeepsServerState}), found once when the coordinator installs its parts (docs/architecture.md,
 * "Capabilities").
 */
public interface TcPart<S> {
    /** Fresh per-transaction state for {@code t}, made before {@link #start}; null if the part keeps none. */
    default S newState(TcTxn t) {
        return null;
    }

    /** Start phase, top-down: allocate metadata (timestamps, batch); call {@code k} once. */
    default void start(TcTxn t, S st, Continuation k) {
        k.proceed();
    }

    /**
     * The procedure this node wants transactions of {@code type} to run instead of {@code p} (e.g. runtime
     * pipelining's reordered steps, dissertation §4.4.2); called root first along the path, each node seeing its
     * parent's choice, so the deepest rewrite runs. Default: unchanged.
     */
    default Procedure procedure(TxnType type, Procedure p) {
        return p;
    }

    /**
     * Whether {@link #beforeOp} for {@code op} must see every earlier operation of the transaction finished (their
     * dependencies reported) — e.g. runtime pipelining entering a new step; the coordinator then sends what it
     * staged and waits for the replies before calling it. False by default: operations pass {@code beforeOp} in
     * program order and go out together, one request per data server.
     */
    default boolean needsPriorOps(TcTxn t, S st, Op op) {
        return false;
    }

    /** Execution phase, TC side of the top-down pass, before the request goes to the data server. */
    default void beforeOp(TcTxn t, S st, Op op, Continuation k) {
        k.proceed();
    }

    /**
     * Reads from the nearest replica (docs/mechanisms.md "Replication", {@code cluster.replication.reads: nearest}):
     * the snapshot bound {@code s} of a read-only transaction whose every read may be answered by any copy of a
     * partition that holds every committed write stamped by this node at or below {@code s}, with the newest such
     * version of the key (stamps: {@link org.tebaldi.core.storage.Version#stamp} of this node; versions written
     * before the run, stamp {@link org.tebaldi.core.storage.Version#NO_STAMP}, are below every bound). Asked only of
     * the root, after {@link #start} and {@link #beforeOp}, and only when every other level of the path is a
     * {@code none} node. Such a read reaches no data-server part; the part takes the responsibility that skipping
     * its data-server part keeps the transaction serializable. {@link Long#MIN_VALUE} (the default): every read
     * goes to the partition's primary.
     */
    default long replicaSnapshot(TcTxn t, S st) {
        return Long.MIN_VALUE;
    }

    /** A report from this node's DS part ({@link DsTxn#report}), delivered before the reply's bottom-up pass. */
    default void onReport(TcTxn t, S st, CcReport report) {
    }

    /**
     * Validation phase, top-down at the TC, before the validation requests leave: compute what the data servers'
     * validation needs from the execution phase (e.g. a commit timestamp from the leases read) and expose it through
     * {@link #meta}, which is shipped with the validation requests. Call {@code k} once.
     */
    default void beforeValidation(TcTxn t, S st, Continuation k) {
        k.proceed();
    }

    /**
     * Validation phase, bottom-up at the TC after every participant voted yes: decide, possibly after waiting
     * (SSI commit timestamp and pivot check, TSO batch order). Call {@code k} once.
     */
    default void validate(TcTxn t, S st, Continuation k) {
        k.proceed();
    }

    /**
     * Per-level metadata shipped with every request to the data servers (read there with {@link DsTxn#meta}), or
     * null. Must have a codec (process mode).
     */
    default Object meta(TcTxn t, S st) {
        return null;
    }

    /** Per-level metadata shipped with the commit (given to {@link DsPart#finish}), or null. */
    default Object commitMeta(TcTxn t, S st) {
        return null;
    }

    /**
     * The transaction ended: committed (leaf first, after {@link #commitMeta}) or aborted. Release what the part
     * holds for it. Called once, and also for a transaction whose start had not finished.
     */
    default void finish(TcTxn t, S st, boolean committed) {
    }

    /** A mechanism-specific message addressed to this node at this coordinator ({@link CcEnvelope}). */
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

    /**
     * This part is dropped: a partial restart (dissertation §5.5.1) rebuilt the coordinator's CC module, or an online
     * update (§5.5.2) retired its node; no transaction of the part is running. A part must release what it holds in
     * shared services on behalf of this coordinator (e.g. batches registered at the timestamp service), since the
     * part that replaces it under the same node id knows nothing of them. Messages still addressed to the node go to
     * the new part (or nowhere).
     */
    default void dropped() {
    }

    /**
     * Counters this part keeps for the run report, by name ({@code prefix.name}, labelled by the mechanism's
     * {@link LabelledCounters}); read from another thread while the coordinator runs, so a part keeps them in
     * thread-safe cells. Empty by default.
     */
    default java.util.Map<String, Long> counters() {
        return java.util.Map.of();
    }

    /**
     * A singleton service ({@code service}: the timestamp service, the batch manager) failed and a new term takes
     * over under the same address; the coordinator has aborted every live transaction. A part that groups new
     * transactions into state the failed instance held (open batches of the old term) must stop doing so — later
     * transactions go to the new term.
     */
    default void serviceFailed(org.tebaldi.core.runtime.NodeId service) {
    }
}
