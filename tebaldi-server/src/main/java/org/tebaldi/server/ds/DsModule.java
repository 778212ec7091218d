package org.tebaldi.server.ds;

import java.util.function.Consumer;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.server.node.CcModule;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.LevelPass;

/**
 * The data server's CC module (docs/architecture.md, "A phase's path through the tree"): the DS part of every tree
 * node, and every pass over a transaction's path π at this server — top-down to lock, wait or abort before an
 * operation, the bottom-up read-version chain (Fig 4.5) and dependency reports after it, bottom-up validation, and
 * the end leaf first — each level getting its typed per-transaction state. Data-server thread only.
 */
final class DsModule extends CcModule<DsPart<Object>> {
    private final DsServices services;

    DsModule(DsServices services) {
        this.services = services;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected DsPart<Object> create(ClusterConfig c, CcNode node) {
        return (DsPart<Object>) c.mechanism(node).dsPart(node, services);
    }

    @Override
    protected void rebind(DsPart<Object> part, CcNode node) {
        part.rebind(node);
    }

    @Override
    protected void deliver(DsPart<Object> part, NodeId from, Object payload) {
        part.onMessage(from, payload);
    }

    private DsPart<Object> at(DsTxnImpl t, int level) {
        return part(t.path, level);
    }

    /** Every part's counters for the run report ({@link DsPart#counters}), summed by name. */
    java.util.Map<String, Long> counters() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (DsPart<Object> p : parts()) {
            p.counters().forEach((k, v) -> out.merge(k, v, Long::sum));
        }
        return out;
    }

    /** The transaction's first request here: every level makes its state. */
    void newStates(DsTxnImpl t) {
        for (int l = 0; l < t.path.length; l++) {
            t.states[l] = at(t, l).newState(t);
        }
    }

    /** A request of {@code t} arrived, with its metadata set: every level looks at it first. */
    void onRequest(DsTxnImpl t) {
        for (int l = 0; l < t.path.length; l++) {
            at(t, l).onRequest(t, t.states[l]);
        }
    }

    /** Execution phase, top-down: each level may lock, wait or abort. */
    void execute(DsTxnImpl t, OpExecution op, Runnable done, Consumer<AbortReason> abort) {
        LevelPass.topDown(services, t.path.length, whileLive(t, (l, k) -> at(t, l).execute(t, t.states[l], op.at(l),
                k)), done, abort);
    }

    /**
     * A pass's step that runs a level only while {@code t} is live here. A transaction can end while a level has
     * parked it — aborted by its coordinator, a timeout or a failed coordinator's {@code NodeDown} — and a parked
     * request can be granted in the very event that ends it (a failed coordinator's transactions abort one after
     * the other: releasing one's lock grants it to the next, which aborts right after). Its finish released
     * everything the levels held then; a later level that went on would lock (or mark) for a finished transaction,
     * and nothing would ever release that lock. So the pass aborts instead, with the transaction's abort reason.
     */
    private static LevelPass.Step whileLive(DsTxnImpl t, LevelPass.Step step) {
        return (l, k) -> {
            if (t.finished()) {
                k.abort(t.abortReason != null ? t.abortReason
                        : AbortReason.conflict("ended at this data server while an operation waited"));
            } else {
                step.run(l, k);
            }
        };
    }

    /** The read-version chain, leaf to root, starting from the transaction's own version (or null). */
    Version chooseRead(DsTxnImpl t, OpExecution op, Version own) {
        Version p = own;
        for (int l = t.path.length - 1; l >= 0; l--) {
            p = at(t, l).chooseRead(t, t.states[l], op.at(l), p);
        }
        return p;
    }

    /** Execution phase, bottom-up after the operation: dependency reports, rechecks. */
    void afterOp(DsTxnImpl t, OpExecution op) {
        for (int l = t.path.length - 1; l >= 0; l--) {
            at(t, l).afterOp(t, t.states[l], op.at(l));
        }
    }

    /** Validation phase at this server, bottom-up. */
    void validate(DsTxnImpl t, Runnable done, Consumer<AbortReason> abort) {
        LevelPass.bottomUp(services, t.path.length, whileLive(t, (l, k) -> at(t, l).validate(t, t.states[l], k)),
                done, abort);
    }

    /** The transaction ended here: every level's finish, leaf first ({@code commitMeta} null for an abort). */
    void finish(DsTxnImpl t, boolean committed, Object[] commitMeta) {
        for (int l = t.path.length - 1; l >= 0; l--) {
            at(t, l).finish(t, t.states[l], committed, commitMeta == null ? null : commitMeta[l]);
        }
    }

    /** Per CC node, the highest transaction timestamp its parts here served (outlives part rebuilds). */
    private final java.util.Map<Integer, Long> served = new java.util.HashMap<>();

    /** A part of CC node {@code ccNode} served a transaction with timestamp {@code ts}. */
    void served(int ccNode, long ts) {
        served.merge(ccNode, ts, Math::max);
    }

    /** The highest timestamp the parts of {@code ccNode} served here; -1 if none. */
    long highestServed(int ccNode) {
        return served.getOrDefault(ccNode, -1L);
    }
}
