package org.tebaldi.server.tc;

import java.util.List;
import java.util.Map;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.proc.ProcRun;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.AbortTxn;
import org.tebaldi.server.msg.BeginTxn;
import org.tebaldi.server.msg.CallProc;
import org.tebaldi.server.msg.CommitTxn;
import org.tebaldi.server.msg.TxnEnded;
import org.tebaldi.server.msg.TxnHeader;
import org.tebaldi.server.msg.TxnOp;
import org.tebaldi.server.msg.TxnOps;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Handlers;

/**
 * A coordinator's client protocol (dissertation §4.3.1; docs/architecture.md, "A phase's path through the tree"):
 * begin, operations, commit, abort and stored procedures from client endpoints; a new transaction gets its id, its
 * path and its driver ({@link InteractiveDriver}, {@link ProcedureDriver}) and starts at every level of its path.
 * Bad inputs and requests for transactions that ended are answered with a failure. Coordinator thread only.
 */
final class TcClients {
    private final TransactionCoordinator tc;
    private long seq;

    TcClients(TransactionCoordinator tc) {
        this.tc = tc;
    }

    /** Registers the client protocol's handlers. */
    void register(Handlers handlers) {
        handlers.on(CallProc.class, this::onCall)
                .on(BeginTxn.class, (from, m) -> begin(from, m.reqId(), m.typeId(), m.inputs(), m.priority(), false))
                .on(TxnOp.class, (from, m) -> onOps(from, m.txnId(), List.of(m.op()), m.opId(), true))
                .on(TxnOps.class, (from, m) -> onOps(from, m.txnId(), List.of(m.ops()), m.firstOpId(), false))
                .on(CommitTxn.class, (from, m) -> {
                    TcTxnImpl t = tc.live(m.txnId());
                    if (t == null) {
                        ended(from, m.txnId(), AbortReason.error("transaction already ended"));
                    } else {
                        tc.commits().request(t);
                    }
                })
                .on(AbortTxn.class, (from, m) -> {
                    TcTxnImpl t = tc.live(m.txnId());
                    if (t == null) {
                        ended(from, m.txnId(), AbortReason.error("transaction already ended"));
                    } else {
                        tc.commits().abort(t, AbortReason.error("user abort"));
                    }
                });
    }

    /** Transaction ids start above {@code seq} from now on. */
    void startIdsAbove(long seq) {
        this.seq = Math.max(this.seq, seq);
    }

    private void onCall(NodeId from, CallProc m) {
        TxnType type = tc.database().type(m.typeId());
        if (!type.isProcedure()) {
            tc.sendMessage(from, new TxnEnded(m.reqId(), 0, false, type.name() + " is not a stored procedure", false,
                    Map.of()));
            return;
        }
        begin(from, m.reqId(), m.typeId(), m.inputs(), m.priority(), true);
    }

    private void begin(NodeId client, long reqId, int typeId, Inputs inputs, long priority, boolean proc) {
        ClusterConfig cfg = tc.config();
        TxnType type = cfg.db().type(typeId);
        CcNode leaf = cfg.leafOf(typeId);
        OpDriver driver;
        long instance;
        try {
            instance = leaf.instanceBy() == null ? 0 : instanceValue(inputs.get(type.param(leaf.instanceBy())));
            if (proc) {
                Procedure p = tc.module().procedure(typeId);
                ProcRun run = cfg.opBatching() ? p.startBatched(inputs) : p.start(inputs);
                driver = new ProcedureDriver(tc, run, cfg.opBatching());
            } else {
                driver = new InteractiveDriver(tc);
            }
        } catch (RuntimeException e) {
            tc.sendMessage(client, new TxnEnded(reqId, 0, false, "bad inputs for " + type.name() + ": "
                    + e.getMessage(), false, Map.of()));
            return;
        }
        long id = TxnIds.make(tc.tcIndex(), ++seq);
        CcNode[] path = cfg.tree().path(leaf.id());
        TcTxnImpl t = new TcTxnImpl(new TxnHeader(id, typeId, leaf.id(), instance, priority), type, inputs, path,
                client, reqId, driver, cfg.dataServers());
        t.begunAt = tc.nowMicros();
        tc.admit(t);
        tc.module().start(t, () -> {
            if (t.status == TcTxnImpl.Status.STARTING) {
                t.status = TcTxnImpl.Status.ACTIVE;
                t.driver.started(t);
            }
        }, why -> tc.commits().abort(t, why));
    }

    private static long instanceValue(Object v) {
        if (v instanceof Number n) {
            return n.longValue();
        }
        return v == null ? 0 : v.hashCode();
    }

    /** Operations from an interactive client. */
    private void onOps(NodeId from, long txnId, List<org.tebaldi.core.txn.Op> ops, int firstOpId, boolean single) {
        TcTxnImpl t = tc.live(txnId);
        if (t == null || t.status != TcTxnImpl.Status.ACTIVE || t.commitRequested
                || !(t.driver instanceof InteractiveDriver d)) {
            ended(from, txnId, AbortReason.error("operations after the transaction ended or asked to commit"));
            return;
        }
        d.submit(t, ops, firstOpId, single);
    }

    private void ended(NodeId client, long txnId, AbortReason why) {
        tc.sendMessage(client, new TxnEnded(0, txnId, false, why.message(), why.retryable(), Map.of()));
    }
}
