package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.ProcRun;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.ProcStep;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.msg.AbortTxn;
import org.tebaldi.server.msg.BeginTxn;
import org.tebaldi.server.msg.CallProc;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.CommitTxn;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecReplies;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.LevelReport;
import org.tebaldi.server.msg.OpDone;
import org.tebaldi.server.msg.TxnBegun;
import org.tebaldi.server.msg.TxnEnded;
import org.tebaldi.server.msg.TxnHeader;
import org.tebaldi.server.msg.TxnOp;
import org.tebaldi.server.msg.TxnOps;
import org.tebaldi.server.msg.OpsDone;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.ValidateRequest;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.LevelPass;
import org.tebaldi.server.node.NodeBase;

/**
 * A transaction coordinator (dissertation §4.3.1, §4.5.1): runs interactive transactions and stored procedures
 * through the four phases of every CC node on their path π. For each phase it first runs the TC parts of all
 * levels, then sends one request per involved data server and waits for one reply each (§4.5.2):
 * start (top-down, TC only) → execute (per operation: TC parts top-down, one DS round trip, TC parts
 * bottom-up) → validate (one round trip per participant, then TC parts bottom-up) → commit (TC parts leaf
 * first, one message per participant).
 */
public final class TransactionCoordinator extends NodeBase implements TcServices {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);

    private final int index;
    private ClusterConfig cfg;
    private TcPart[] parts;
    private final HashMap<Long, TcTxnImpl> txns = new HashMap<>();
    private final HistoryLog history;
    private Procedure[] procedures;
    private final BitSet deadDs = new BitSet();
    private long replyTimeoutMicros;
    private long seq;
    private final Reconfiguring reconfig = new Reconfiguring();
    private final TcDurability durability;

    public TransactionCoordinator(int index, ClusterConfig cfg) {
        this.index = index;
        this.cfg = cfg;
        this.history = cfg.recordHistory() ? new HistoryLog() : null;
        this.durability = cfg.durability().enabled()
                ? new TcDurability(this, cfg.dataServers(), cfg.durability().sync(), cfg.recordHistory()) : null;
        install(cfg);
    }

    /** Builds the CC module (one TC part per tree node, procedures as the tree's mechanisms rewrite them). */
    private void install(ClusterConfig c) {
        this.cfg = c;
        TcPart[] fresh = new TcPart[c.tree().idBound()];
        for (CcNode n : c.tree().nodes()) {
            if (n.hasParts()) {
                fresh[n.id()] = c.mechanism(n).tcPart(n, this);
            }
        }
        use(c, fresh);
    }

    private void use(ClusterConfig c, TcPart[] newParts) {
        this.cfg = c;
        this.parts = newParts;
        this.procedures = new Procedure[c.db().types().size()];
        for (TxnType type : c.db().types()) {
            if (type.isProcedure()) {
                Procedure p = type.procedure();
                for (CcNode n : c.tree().path(c.leafOf(type.id()).id())) {
                    p = parts[n.id()].procedure(type, p);
                }
                procedures[type.id()] = p;
            }
        }
    }

    /**
     * Makes this coordinator abort a transaction whose data-server requests have had no reply for
     * {@code micros} µs (a lost message, or a server that hangs without leaving ZooKeeper), checked every quarter
     * of the timeout (at least 100 ms). 0 (the default, and the only sensible value under simulation) disables it.
     * Call before the node starts.
     */
    public void setReplyTimeout(long micros) {
        this.replyTimeoutMicros = micros;
    }

    /**
     * Makes this coordinator's transaction ids start above {@code seq} — a coordinator restarted together with data
     * servers that recover logged transactions must not reuse their ids. Call before the node starts.
     */
    public void startIdsAbove(long seq) {
        this.seq = Math.max(this.seq, seq);
    }

    private void sweep() {
        long now = ctx.nowMicros();
        List<TcTxnImpl> late = new ArrayList<>();
        for (TcTxnImpl t : txns.values()) {
            if (t.awaiting > 0 && now - t.sentAt > replyTimeoutMicros) {
                late.add(t);
            }
        }
        for (TcTxnImpl t : late) {
            abortTxn(t, AbortReason.error("no reply from data server(s) " + Arrays.toString(t.participants())
                    + " within " + replyTimeoutMicros / 1000 + " ms"));
        }
        schedule(Math.max(100_000, replyTimeoutMicros / 4), this::sweep);
    }

    /**
     * A node failed (process mode, DESIGN.md §6): transactions with a participant on a failed data server abort
     * with a clear, non-retryable error (their partition is unavailable), and so do transactions of a failed
     * client endpoint; later operations on that server abort at once.
     */
    private void onNodeDown(NodeDown d) {
        List<TcTxnImpl> doomed = new ArrayList<>();
        if (d.node().role() == Role.DS) {
            deadDs.set(d.node().index());
            for (TcTxnImpl t : txns.values()) {
                for (int p : t.participants()) {
                    if (p == d.node().index()) {
                        doomed.add(t);
                        break;
                    }
                }
            }
        } else if (d.node().role() == Role.CLIENT) {
            for (TcTxnImpl t : txns.values()) {
                if (t.client.equals(d.node())) {
                    doomed.add(t);
                }
            }
        }
        for (TcTxnImpl t : doomed) {
            abortTxn(t, AbortReason.error(failedMessage(d)));
        }
        if (!doomed.isEmpty()) {
            LOG.warn("tc{}: aborted {} transaction(s): {}", index, doomed.size(), failedMessage(d));
        }
    }

    private static String failedMessage(NodeDown d) {
        return (d.node().role() == Role.DS ? "data server " : "client ") + d.node() + " failed (" + d.reason() + ")";
    }

    @Override
    protected void started() {
        if (cfg.profileFlushMicros() > 0) {
            enableProfiling(new NodeId(Role.MONITOR, 0), cfg.profileFlushMicros());
        }
        if (replyTimeoutMicros > 0) {
            sweep();
        }
    }

    @Override
    protected void handle(NodeId from, Object msg) {
        if (durability != null && durability.intercept(from, msg)) {
            return;
        }
        if (reconfig.intercept(this, from, msg)) {
            return;
        }
        if (msg instanceof NodeDown d) {
            onNodeDown(d);
        } else if (msg instanceof ExecReply r) {
            onExecReply(r);
        } else if (msg instanceof ValidateReply r) {
            onValidateReply(r);
        } else if (msg instanceof CallProc m) {
            onCall(from, m);
        } else if (msg instanceof BeginTxn m) {
            begin(from, m.reqId(), m.typeId(), m.inputs(), m.priority(), false);
        } else if (msg instanceof TxnOp m) {
            onOp(from, m);
        } else if (msg instanceof CommitTxn m) {
            TcTxnImpl t = txns.get(m.txnId());
            if (t == null) {
                ended(from, 0, m.txnId(), AbortReason.error("transaction already ended"));
            } else {
                requestCommit(t);
            }
        } else if (msg instanceof AbortTxn m) {
            TcTxnImpl t = txns.get(m.txnId());
            if (t == null) {
                ended(from, 0, m.txnId(), AbortReason.error("transaction already ended"));
            } else {
                abortTxn(t, AbortReason.error("user abort"));
            }
        } else if (msg instanceof TxnOps m) {
            onOps(from, m);
        } else if (msg instanceof ExecReplies rs) {
            for (ExecReply r : rs.replies()) {
                onExecReply(r);
            }
        } else if (msg instanceof CcEnvelope e) {
            if (e.ccNode() >= 0 && e.ccNode() < parts.length && parts[e.ccNode()] != null) {
                parts[e.ccNode()].onMessage(from, e.payload());
            }
        } else {
            LOG.warn("tc{}: unexpected message {} from {}", index, msg, from);
        }
    }

    // ---- start phase ---------------------------------------------------------------------------------------

    private void onCall(NodeId from, CallProc m) {
        TxnType type = cfg.db().type(m.typeId());
        if (!type.isProcedure()) {
            ended(from, m.reqId(), 0, AbortReason.error(type.name() + " is not a stored procedure"));
            return;
        }
        begin(from, m.reqId(), m.typeId(), m.inputs(), m.priority(), true);
    }

    private void begin(NodeId client, long reqId, int typeId, Inputs inputs, long priority, boolean proc) {
        TxnType type = cfg.db().type(typeId);
        CcNode leaf = cfg.leafOf(typeId);
        ProcRun run = null;
        long instance;
        try {
            instance = leaf.instanceBy() == null ? 0 : instanceValue(inputs.get(type.param(leaf.instanceBy())));
            if (proc) {
                run = cfg.opBatching() ? procedures[typeId].startBatched(inputs) : procedures[typeId].start(inputs);
            }
        } catch (RuntimeException e) {
            ended(client, reqId, 0, AbortReason.error("bad inputs for " + type.name() + ": " + e.getMessage()));
            return;
        }
        long id = TxnIds.make(index, ++seq);
        CcNode[] path = cfg.tree().path(leaf.id());
        TcTxnImpl t = new TcTxnImpl(new TxnHeader(id, typeId, leaf.id(), instance, priority), type, inputs, path,
                client, reqId, run, cfg.dataServers());
        txns.put(id, t);
        LevelPass.topDown(this, path.length, (l, k) -> part(t, l).start(t, k), () -> started(t),
                why -> abortTxn(t, why));
    }

    private static long instanceValue(Object v) {
        if (v instanceof Number n) {
            return n.longValue();
        }
        return v == null ? 0 : v.hashCode();
    }

    private void started(TcTxnImpl t) {
        if (t.status != TcTxnImpl.Status.STARTING) {
            return;
        }
        t.status = TcTxnImpl.Status.ACTIVE;
        if (t.run == null) {
            ctx.send(t.client, new TxnBegun(t.reqId, t.id()));
        } else if (cfg.opBatching()) {
            resume(t, List.of());
        } else {
            step(t, null);
        }
    }

    // ---- execution phase -----------------------------------------------------------------------------------

    private void step(TcTxnImpl t, Row last) {
        ProcStep s;
        try {
            s = t.run.next(last);
        } catch (RuntimeException e) {
            abortTxn(t, AbortReason.error(t.type.name() + ": " + e.getMessage()));
            return;
        }
        if (s instanceof ProcStep.Issue is) {
            issue(t, t.nextOpId++, is.op());
        } else if (s instanceof ProcStep.Done d) {
            t.outputs = d.outputs();
            requestCommit(t);
        } else if (s instanceof ProcStep.Abort a) {
            abortTxn(t, AbortReason.error("user abort: " + a.reason()));
        }
    }

    // ---- batched execution of stored procedures (see OpBatch) ----------------------------------------------

    private void resume(TcTxnImpl t, List<Row> results) {
        ProcStep s;
        try {
            s = t.run.resume(results);
        } catch (RuntimeException e) {
            abortTxn(t, AbortReason.error(t.type.name() + ": " + e.getMessage()));
            return;
        }
        if (s instanceof ProcStep.Batch b) {
            t.batch = new OpBatch(b.ops(), t.nextOpId);
            t.nextOpId += b.ops().size();
            advance(t);
        } else if (s instanceof ProcStep.Done d) {
            t.outputs = d.outputs();
            requestCommit(t);
        } else if (s instanceof ProcStep.Abort a) {
            abortTxn(t, AbortReason.error("user abort: " + a.reason()));
        }
    }

    /** Passes the batch's next operations through the TC parts, staging them; sends when it must or can. */
    private void advance(TcTxnImpl t) {
        OpBatch b = t.batch;
        if (t.status == TcTxnImpl.Status.DONE || b == null) {
            return;
        }
        if (b.next == b.ops.size()) {
            flush(t);
            if (b.inFlight == 0) {
                finishBatch(t);
            }
            return;
        }
        Op op = b.ops.get(b.next);
        if ((b.inFlight > 0 || !b.staged.isEmpty()) && needsPriorOps(t, op)) {
            flush(t);
            return; // continues when the replies are in
        }
        if (refusesWrite(t, op)) {
            return;
        }
        int i = b.next++;
        t.pendingOps.put(b.firstOpId + i, op);
        LevelPass.topDown(this, t.path.length, (l, k) -> part(t, l).beforeOp(t, op, k), () -> {
            b.staged.add(i);
            advance(t);
        }, why -> abortTxn(t, why));
    }

    private boolean needsPriorOps(TcTxnImpl t, Op op) {
        for (int l = 0; l < t.path.length; l++) {
            if (part(t, l).needsPriorOps(t, op)) {
                return true;
            }
        }
        return false;
    }

    /** Sends the staged operations: one message per data server, in program order within each. */
    private void flush(TcTxnImpl t) {
        OpBatch b = t.batch;
        if (b.staged.isEmpty() || t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        Map<Integer, List<Integer>> byDs = new java.util.LinkedHashMap<>();
        for (int i : b.staged) {
            int ds = dsOf(t, b.ops.get(i).key());
            if (deadDs.get(ds)) {
                abortTxn(t, AbortReason.error("data server ds" + ds + " is down"));
                return;
            }
            byDs.computeIfAbsent(ds, x -> new ArrayList<>()).add(i);
            if (durability != null && b.ops.get(i).kind().writes()) {
                t.markWriter(ds);
            }
        }
        b.staged.clear();
        Object[] meta = meta(t);
        t.sentAt = ctx.nowMicros();
        for (Map.Entry<Integer, List<Integer>> e : byDs.entrySet()) {
            List<Integer> idx = e.getValue();
            t.addParticipant(e.getKey());
            t.awaiting += idx.size();
            b.inFlight += idx.size();
            if (idx.size() == 1) {
                int i = idx.get(0);
                ctx.send(NodeId.ds(e.getKey()), new ExecRequest(t.header, b.firstOpId + i, b.ops.get(i), meta));
                continue;
            }
            int[] ids = new int[idx.size()];
            Op[] ops = new Op[idx.size()];
            for (int k = 0; k < ids.length; k++) {
                ids[k] = b.firstOpId + idx.get(k);
                ops[k] = b.ops.get(idx.get(k));
            }
            ctx.send(NodeId.ds(e.getKey()), new ExecBatch(t.header, ids, ops, meta));
        }
    }

    /** A reply of the batch arrived (already accounted as for any operation). */
    private void batchReply(TcTxnImpl t, ExecReply r) {
        OpBatch b = t.batch;
        b.results[r.opId() - b.firstOpId] = r.row();
        if (--b.inFlight > 0) {
            return;
        }
        if (b.next < b.ops.size()) {
            advance(t);
        } else if (b.staged.isEmpty()) {
            finishBatch(t);
        }
    }

    private void finishBatch(TcTxnImpl t) {
        OpBatch b = t.batch;
        t.batch = null;
        if (t.run != null) {
            resume(t, Arrays.asList(b.results));
            return;
        }
        ctx.send(t.client, new OpsDone(t.id(), b.firstOpId, b.results));
        TxnOps next = t.queuedBatches.poll();
        if (next != null) {
            t.batch = new OpBatch(List.of(next.ops()), next.firstOpId());
            advance(t);
        } else if (t.commitRequested && t.pendingOps.isEmpty()) {
            validate(t);
        }
    }

    private int dsOf(TcTxnImpl t, Key key) {
        return cfg.db().catalog().table(key.table()).replicated() ? (t.home >= 0 ? t.home : 0)
                : cfg.partitioner().partition(key);
    }

    private void onOps(NodeId from, TxnOps m) {
        TcTxnImpl t = txns.get(m.txnId());
        if (t == null || t.status != TcTxnImpl.Status.ACTIVE || t.commitRequested || t.run != null) {
            ended(from, 0, m.txnId(), AbortReason.error("operations after the transaction ended or asked to commit"));
            return;
        }
        if (t.batch != null) {
            t.queuedBatches.add(m);
            return;
        }
        t.batch = new OpBatch(List.of(m.ops()), m.firstOpId());
        advance(t);
    }

    private void onOp(NodeId from, TxnOp m) {
        TcTxnImpl t = txns.get(m.txnId());
        if (t == null || t.status != TcTxnImpl.Status.ACTIVE || t.commitRequested) {
            ended(from, 0, m.txnId(), AbortReason.error("operation after the transaction ended or asked to commit"));
            return;
        }
        issue(t, m.opId(), m.op());
    }

    /**
     * A type declared read-only may not write, whatever the tree (a mechanism may count on it, e.g. SSI's root
     * optimization counts update groups by the declarations): the write fails its transaction with a
     * non-retryable error naming the type and the operation. Returns true if it did.
     */
    private boolean refusesWrite(TcTxnImpl t, Op op) {
        if (!t.type.readOnly() || !op.kind().writes()) {
            return false;
        }
        String table = cfg.db().catalog().table(op.key().table()).name();
        abortTxn(t, AbortReason.error(t.type.name() + " is declared read-only but issued " + op.kind() + " on "
                + table + Arrays.toString(op.key().parts()) + "; declare the type as an update type or remove the write"));
        return true;
    }

    private void issue(TcTxnImpl t, int opId, Op op) {
        if (refusesWrite(t, op)) {
            return;
        }
        t.pendingOps.put(opId, op);
        LevelPass.topDown(this, t.path.length, (l, k) -> part(t, l).beforeOp(t, op, k),
                () -> sendOp(t, opId, op), why -> abortTxn(t, why));
    }

    private void sendOp(TcTxnImpl t, int opId, Op op) {
        if (t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        int ds = dsOf(t, op.key());
        if (deadDs.get(ds)) {
            abortTxn(t, AbortReason.error("data server ds" + ds + " is down"));
            return;
        }
        t.addParticipant(ds);
        if (durability != null && op.kind().writes()) {
            t.markWriter(ds);
        }
        t.awaiting++;
        t.sentAt = ctx.nowMicros();
        ctx.send(NodeId.ds(ds), new ExecRequest(t.header, opId, op, meta(t)));
    }

    private void onExecReply(ExecReply r) {
        TcTxnImpl t = txns.get(r.txnId());
        if (t == null || t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        Op op = t.pendingOps.remove(r.opId());
        t.awaiting--;
        deliverReports(t, r.reports());
        if (!r.ok()) {
            abortTxn(t, new AbortReason(r.reason(), r.retryable()));
            return;
        }
        List<TxnDep> nd = addDeps(t, r.deps());
        for (int l = t.path.length - 1; l >= 0; l--) {
            part(t, l).afterOp(t, op, nd);
        }
        if (t.batch != null && t.batch.has(r.opId())) {
            batchReply(t, r);
        } else if (t.run != null) {
            step(t, r.row());
        } else {
            ctx.send(t.client, new OpDone(t.id(), r.opId(), r.row()));
            if (t.commitRequested && t.pendingOps.isEmpty() && t.batch == null) {
                validate(t);
            }
        }
    }

    private void deliverReports(TcTxnImpl t, LevelReport[] reports) {
        if (reports != null) {
            for (LevelReport r : reports) {
                part(t, r.level()).onReport(t, r.info());
            }
        }
    }

    private static List<TxnDep> addDeps(TcTxnImpl t, TxnDep[] deps) {
        if (deps == null) {
            return List.of();
        }
        List<TxnDep> nd = Arrays.asList(deps);
        t.deps.addAll(nd);
        return nd;
    }

    // ---- validation and commit -----------------------------------------------------------------------------

    private void requestCommit(TcTxnImpl t) {
        t.commitRequested = true;
        if (t.status == TcTxnImpl.Status.ACTIVE && t.pendingOps.isEmpty() && t.batch == null) {
            validate(t);
        }
    }

    private void validate(TcTxnImpl t) {
        t.status = TcTxnImpl.Status.VALIDATING;
        int[] ps = t.participants();
        if (ps.length == 0) {
            tcValidate(t);
            return;
        }
        t.votes = ps.length;
        t.awaiting = ps.length;
        t.sentAt = ctx.nowMicros();
        Object[] meta = meta(t);
        for (int ds : ps) {
            ctx.send(NodeId.ds(ds), new ValidateRequest(t.id(), meta, durability == null ? 0 : t.writers()));
        }
    }

    private void onValidateReply(ValidateReply r) {
        TcTxnImpl t = txns.get(r.txnId());
        if (t == null || t.status != TcTxnImpl.Status.VALIDATING) {
            return;
        }
        t.awaiting--;
        t.epoch = Math.max(t.epoch, r.epoch());
        addDeps(t, r.deps());
        deliverReports(t, r.reports());
        if (t.status != TcTxnImpl.Status.VALIDATING) {
            return;
        }
        if (!r.ok()) {
            abortTxn(t, new AbortReason(r.reason(), r.retryable()));
        } else if (--t.votes == 0) {
            tcValidate(t);
        }
    }

    private void tcValidate(TcTxnImpl t) {
        LevelPass.bottomUp(this, t.path.length, (l, k) -> part(t, l).validate(t, k), () -> commit(t),
                why -> abortTxn(t, why));
    }

    private void commit(TcTxnImpl t) {
        if (t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        t.status = TcTxnImpl.Status.DONE;
        txns.remove(t.id());
        Object[] cm = null;
        for (int l = t.path.length - 1; l >= 0; l--) {
            Object m = part(t, l).commitMeta(t);
            if (m != null) {
                if (cm == null) {
                    cm = new Object[t.path.length];
                }
                cm[l] = m;
            }
        }
        for (int l = t.path.length - 1; l >= 0; l--) {
            part(t, l).commit(t);
        }
        for (int ds : t.participants()) {
            ctx.send(NodeId.ds(ds), new CommitRequest(t.id(), cm, t.epoch));
        }
        if (history != null) {
            history.outcome(t.id(), true, t.type.name());
        }
        TxnEnded ended = new TxnEnded(t.reqId, t.id(), true, null, true, t.outputs);
        if (durability != null) {
            durability.committed(t.client, t.id(), t.epoch, ended);
        } else {
            ctx.send(t.client, ended);
        }
        reconfig.ended(this);
    }

    private void abortTxn(TcTxnImpl t, AbortReason why) {
        if (t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        t.status = TcTxnImpl.Status.DONE;
        txns.remove(t.id());
        for (int l = t.path.length - 1; l >= 0; l--) {
            part(t, l).abort(t);
        }
        for (int ds : t.participants()) {
            ctx.send(NodeId.ds(ds), new AbortRequest(t.id()));
        }
        if (history != null) {
            history.outcome(t.id(), false, t.type.name());
        }
        ended(t.client, t.reqId, t.id(), why);
        reconfig.ended(this);
    }

    private void ended(NodeId client, long reqId, long txnId, AbortReason why) {
        ctx.send(client, new TxnEnded(reqId, txnId, false, why.message(), why.retryable(), Map.of()));
    }

    private Object[] meta(TcTxnImpl t) {
        Object[] m = null;
        for (int l = 0; l < t.path.length; l++) {
            Object x = part(t, l).meta(t);
            if (x != null) {
                if (m == null) {
                    m = new Object[t.path.length];
                }
                m[l] = x;
            }
        }
        return m;
    }

    private TcPart part(TcTxnImpl t, int level) {
        return parts[t.path[level].id()];
    }

    /** Outcomes recorded here (null if recording is off). Read after the node stopped. */
    public HistoryLog history() {
        return history;
    }

    // ---- reconfiguration (partial restart, dissertation §5.5.1; see Reconfiguring) --------------------------

    /** Data servers of the cluster. */
    int dataServers() {
        return cfg.dataServers();
    }

    /** The live transactions (for the clean-up phase's force-abort). */
    List<TcTxnImpl> live() {
        return List.copyOf(txns.values());
    }

    /** Aborts every live transaction (a recovery round began). */
    void abortAll(String why) {
        for (TcTxnImpl t : live()) {
            abortTxn(t, AbortReason.conflict(why));
        }
    }

    /** Data server {@code ds} is alive again (it reported an epoch after a recovery round). */
    void revive(int ds) {
        deadDs.clear(ds);
    }

    /** A recovery round ended: every data server serves again. */
    void reviveAll() {
        deadDs.clear();
    }

    /**
     * Committed transactions lost in recovery (dissertation §4.5.4: their epoch was not persisted everywhere): their
     * recorded outcome becomes an abort — none of their writes survived.
     */
    void retractCommits(java.util.Set<Long> lost) {
        if (history != null) {
            history.outcomes().replaceAll(o -> lost.contains(o.txn())
                    ? new HistoryLog.Outcome(o.txn(), false, o.type()) : o);
        }
    }

    /** Coordinators of the cluster. */
    int coordinators() {
        return cfg.coordinators();
    }

    /** Committed transactions still waiting for their durable notification (0 without durability). */
    public int awaitingDurability() {
        return durability == null ? 0 : durability.pendingCount();
    }

    /**
     * The global epoch id (dissertation §4.5.4) transaction {@code txnId} committed with here, or -1 if unknown
     * (kept only when the history is recorded).
     */
    public long globalEpochOf(long txnId) {
        return durability == null ? -1 : durability.epochOf(txnId);
    }

    /** Whether a recovery round is running (false without durability). */
    public boolean recovering() {
        return durability != null && durability.recovering();
    }

    /** Aborts a live transaction (force-abort during clean-up). */
    void forceAbort(TcTxnImpl t) {
        abortTxn(t, AbortReason.conflict("aborted to reconfigure the CC tree"));
    }

    /** Rebuilds the CC module for another tree (prepare phase); storage is untouched. */
    void reinstall(org.tebaldi.core.tree.CcTree tree) {
        install(cfg.withTree(tree));
    }

    /**
     * Online update (dissertation §5.5.2): switches to a tree derived from the current one with node ids kept —
     * parts of nodes still present and not retired stay (rebound to their node in the new tree); new nodes get new
     * parts; retired nodes lose theirs. New transactions start in the new tree's leaves; running ones keep their
     * path.
     */
    void update(org.tebaldi.core.tree.CcTree tree) {
        TcPart[] next = new TcPart[tree.idBound()];
        TcPart[] old = parts;
        ClusterConfig c = cfg.withTree(tree);
        this.cfg = c;
        for (CcNode n : tree.nodes()) {
            if (!n.hasParts()) {
                continue;
            }
            TcPart kept = n.id() < old.length ? old[n.id()] : null;
            if (kept != null) {
                kept.rebind(n);
                next[n.id()] = kept;
            } else {
                next[n.id()] = c.mechanism(n).tcPart(n, this);
            }
        }
        use(c, next);
    }

    /** Live transactions whose leaf is in the subtree rooted at node {@code subtree} of the current tree. */
    int liveIn(int subtree) {
        CcNode root = cfg.tree().node(subtree);
        int n = 0;
        for (TcTxnImpl t : txns.values()) {
            if (root != null && root.contains(t.leaf())) {
                n++;
            }
        }
        return n;
    }

    /** Sends a framework message (reconfiguration protocol). */
    void sendMessage(NodeId to, Object msg) {
        ctx.send(to, msg);
    }

    /** Re-handles a message held back during clean-up. */
    void replay(NodeId from, Object msg) {
        handle(from, msg);
    }

    /** One line per live transaction (at most {@code max}): id, type, phase, pending operations — for diagnostics. */
    public List<String> describeLive(int max) {
        return txns.values().stream().limit(max).map(t -> t + " " + t.status + (t.commitRequested ? " commit-requested"
                : "") + " pendingOps=" + t.pendingOps.keySet() + " votesLeft=" + t.votes + " participants="
                + Arrays.toString(t.participants())).toList();
    }

    /** Transactions currently running here. */
    public int liveTransactions() {
        return txns.size();
    }

    @Override
    public Database database() {
        return cfg.db();
    }

    @Override
    public long waitTimeoutMicros() {
        return cfg.waitTimeoutMicros();
    }

    @Override
    public int tcIndex() {
        return index;
    }

    @Override
    public NodeId coordinatorOf(long txnId) {
        return NodeId.tc(TxnIds.coordinator(txnId));
    }

    @Override
    public TcTxn txn(long id) {
        return txns.get(id);
    }

    @Override
    public int partitionOf(Key key) {
        return cfg.partitioner().partition(key);
    }

    @Override
    public void abort(TcTxn t, AbortReason why) {
        later(() -> {
            TcTxnImpl x = txns.get(t.id());
            if (x != null) {
                abortTxn(x, why);
            }
        });
    }
}
