package org.tebaldi.server.tc;

import java.util.function.Consumer;
import org.tebaldi.core.cc.KeepsServerState;
import org.tebaldi.core.cc.ServesReads;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.msg.LevelReport;
import org.tebaldi.server.node.CcModule;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.LevelPass;

/**
 * The coordinator's CC module (docs/architecture.md, "A phase's path through the tree"): the TC part of every tree
 * node, and every pass of a phase over a transaction's path π — top-down for start, operations and the start of
 * validation, bottom-up for replies and the validation decision, leaf first for the end — each level getting its
 * typed per-transaction state. Also the stored procedures as the tree's mechanisms rewrite them (runtime pipelining
 * reorders them into steps, §4.4.2). Coordinator thread only.
 */
final class TcModule extends CcModule<TcPart<Object>> {
    private final TcServices services;
    private Procedure[] procedures = new Procedure[0];
    /** By node id: whether its part serves reads ({@link ServesReads}); found at install. */
    private boolean[] servesReads = new boolean[0];
    /** By node id: whether its mechanism regulates nothing ({@code readOnlyLeaf}); found at install. */
    private boolean[] regulatesNothing = new boolean[0];

    TcModule(TcServices services) {
        this.services = services;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected TcPart<Object> create(ClusterConfig c, CcNode node) {
        return (TcPart<Object>) c.mechanism(node).tcPart(node, services);
    }

    @Override
    protected void rebind(TcPart<Object> part, CcNode node) {
        part.rebind(node);
    }

    @Override
    protected void dropped(TcPart<Object> part) {
        part.dropped();
    }

    @Override
    protected void deliver(TcPart<Object> part, NodeId from, Object payload) {
        part.onMessage(from, payload);
    }

    /**
     * Rewrites every stored procedure along its leaf's path, root first (the deepest rewrite runs), and finds the
     * parts' capabilities.
     */
    @Override
    protected void installed(ClusterConfig c) {
        servesReads = new boolean[c.tree().idBound()];
        regulatesNothing = new boolean[c.tree().idBound()];
        for (CcNode n : c.tree().nodes()) {
            regulatesNothing[n.id()] = c.mechanism(n).readOnlyLeaf();
            servesReads[n.id()] = n.hasParts() && part(n) instanceof ServesReads<?>;
        }
        procedures = new Procedure[c.db().types().size()];
        for (TxnType type : c.db().types()) {
            if (type.isProcedure()) {
                Procedure p = type.procedure();
                for (CcNode n : c.tree().path(c.leafOf(type.id()).id())) {
                    p = part(n).procedure(type, p);
                }
                procedures[type.id()] = p;
            }
        }
    }

    /** The procedure transactions of type {@code typeId} run under the current tree (null if interactive). */
    Procedure procedure(int typeId) {
        return procedures[typeId];
    }

    private TcPart<Object> at(TcTxnImpl t, int level) {
        return part(t.path, level);
    }

    /** Start phase, top-down: every level's state is made, then its start runs. */
    void start(TcTxnImpl t, Runnable done, Consumer<AbortReason> abort) {
        for (int l = 0; l < t.path.length; l++) {
            t.states[l] = at(t, l).newState(t);
        }
        LevelPass.topDown(services, t.path.length, (l, k) -> at(t, l).start(t, t.states[l], k), done, abort);
    }

    /** Whether some level must see every earlier operation's reply before {@code op} passes it. */
    boolean needsPriorOps(TcTxnImpl t, Op op) {
        for (int l = 0; l < t.path.length; l++) {
            if (at(t, l).needsPriorOps(t, t.states[l], op)) {
                return true;
            }
        }
        return false;
    }

    /** Execution phase, TC side of the top-down pass. */
    void beforeOp(TcTxnImpl t, Op op, Runnable done, Consumer<AbortReason> abort) {
        LevelPass.topDown(services, t.path.length, (l, k) -> at(t, l).beforeOp(t, t.states[l], op, k), done, abort);
    }

    /**
     * A plain read answered at the coordinator by the part of a one-level path ({@link ServesReads}), or null:
     * on a longer path every other level must see the read at its data server.
     */
    @SuppressWarnings("unchecked")
    org.tebaldi.core.cc.LocalRead serveRead(TcTxnImpl t, Op op) {
        if (t.path.length != 1 || !servesReads[t.path[0].id()]) {
            return null;
        }
        return ((ServesReads<Object>) at(t, 0)).serveRead(t, t.states[0], op);
    }

    /** A recovery round began: every part that keeps data-server state drops it ({@link KeepsServerState}). */
    void storageRecovered() {
        for (TcPart<Object> p : parts()) {
            if (p instanceof KeepsServerState k) {
                k.storageRecovered();
            }
        }
    }

    /**
     * Reads from the nearest replica: the root part's snapshot bound for {@code t} ({@link TcPart#replicaSnapshot}),
     * asked only when every other level of its path regulates nothing ({@link org.tebaldi.core.cc.Mechanism#readOnlyLeaf}:
     * a level that takes part in reads must see each read at the primary); else {@link Long#MIN_VALUE}.
     */
    long replicaSnapshot(TcTxnImpl t) {
        for (int l = 1; l < t.path.length; l++) {
            if (!regulatesNothing[t.path[l].id()]) {
                return Long.MIN_VALUE;
            }
        }
        return at(t, 0).replicaSnapshot(t, t.states[0]);
    }

    /** Every part's counters for the run report, summed by name. */
    java.util.Map<String, Long> counters() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (TcPart<Object> p : parts()) {
            p.counters().forEach((k, v) -> out.merge(k, v, Long::sum));
        }
        return out;
    }

    /** Delivers the DS parts' reports that came with a reply to their levels. */
    void reports(TcTxnImpl t, LevelReport[] reports) {
        if (reports != null) {
            for (LevelReport r : reports) {
                at(t, r.level()).onReport(t, t.states[r.level()], r.report());
            }
        }
    }

    /** Validation phase, top-down, before the validation requests leave. */
    void beforeValidation(TcTxnImpl t, Runnable done, Consumer<AbortReason> abort) {
        LevelPass.topDown(services, t.path.length, (l, k) -> at(t, l).beforeValidation(t, t.states[l], k), done,
                abort);
    }

    /** Validation phase, bottom-up, after every participant voted yes. */
    void validate(TcTxnImpl t, Runnable done, Consumer<AbortReason> abort) {
        LevelPass.bottomUp(services, t.path.length, (l, k) -> at(t, l).validate(t, t.states[l], k), done, abort);
    }

    /** Every level's request metadata, or null if no level has any. */
    Object[] meta(TcTxnImpl t) {
        Object[] m = null;
        for (int l = 0; l < t.path.length; l++) {
            Object x = at(t, l).meta(t, t.states[l]);
            if (x != null) {
                if (m == null) {
                    m = new Object[t.path.length];
                }
                m[l] = x;
            }
        }
        return m;
    }

    /** Every level's commit metadata, or null if no level has any. */
    Object[] commitMeta(TcTxnImpl t) {
        Object[] m = null;
        for (int l = t.path.length - 1; l >= 0; l--) {
            Object x = at(t, l).commitMeta(t, t.states[l]);
            if (x != null) {
                if (m == null) {
                    m = new Object[t.path.length];
                }
                m[l] = x;
            }
        }
        return m;
    }

    /** The transaction ended: every level's finish, leaf first. */
    void finish(TcTxnImpl t, boolean committed) {
        for (int l = t.path.length - 1; l >= 0; l--) {
            at(t, l).finish(t, t.states[l], committed);
        }
    }
}
