package org.tebaldi.core.cc;

import java.util.List;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Op;

/**
 * The coordinator half of one CC node (dissertation §4.3.1, §4.5.1): one instance per (tree node, TC). All calls
 * come from the TC's actor thread; methods default to doing nothing.
 */
public interface TcPart {
    /** Start phase, top-down: allocate metadata (timestamps, batch); call {@code k} once. */
    default void start(TcTxn t, Continuation k) {
        k.proceed();
    }

    /** Execution phase, TC side of the top-down pass, before the request goes to the DS (RP step entry). */
    default void beforeOp(TcTxn t, Op op, Continuation k) {
        k.proceed();
    }

    /** A report from this node's DS part ({@link DsTxn#report}), delivered before the reply's bottom-up pass. */
    default void onReport(TcTxn t, Object info) {
    }

    /**
     * The procedure this node wants transactions of {@code type} to run instead of {@code p} (e.g. runtime
     * pipelining's reordered steps, dissertation §4.4.2); called root first along the path, each node seeing its
     * parent's choice, so the deepest rewrite runs. Default: unchanged.
     */
    default Procedure procedure(TxnType type, Procedure p) {
        return p;
    }

    /** Execution phase, bottom-up at the TC: the operation's reply arrived with these new dependencies. */
    default void afterOp(TcTxn t, Op op, List<TxnDep> newDeps) {
    }

    /**
     * Validation phase, bottom-up at the TC after every participant voted yes: decide, possibly after waiting
     * (SSI commit timestamp, TSO batch order). Call {@code k} once.
     */
    default void validate(TcTxn t, Continuation k) {
        k.proceed();
    }

    /** Commit phase at the TC, leaf first. */
    default void commit(TcTxn t) {
    }

    /** The transaction aborted. */
    default void abort(TcTxn t) {
    }

    /** Per-level metadata shipped with every request to data servers (read by {@link DsTxn#meta}), or null. */
    default Object meta(TcTxn t) {
        return null;
    }

    /** Per-level metadata shipped with the commit (given to {@link DsPart#commit}), or null. */
    default Object commitMeta(TcTxn t) {
        return null;
    }

    /** A mechanism-specific message addressed to this node at this TC ({@link CcEnvelope}). */
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
