package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;

/**
 * The execution phase at the coordinator, for every execution mode (dissertation §4.3.1, §4.5.2): a batch's
 * operations pass the TC parts top-down one after the other, in program order, and are staged; staged operations go
 * out together, one request per data server; an operation some level must not see before the earlier ones are
 * answered ({@code needsPriorOps}, e.g. runtime pipelining entering a new step) first sends what is staged and waits
 * for the replies. Each reply delivers its reports and dependencies and runs the TC parts bottom-up; when the last
 * arrives the batch goes back to the transaction's {@link OpDriver}. Coordinator thread only.
 */
final class OpExecutor {
    private final TransactionCoordinator tc;
    private final ReplicaReads replicaReads;

    OpExecutor(TransactionCoordinator tc) {
        this.tc = tc;
        this.replicaReads = new ReplicaReads(tc, this);
    }

    /** Reads from the nearest replica at this coordinator. */
    ReplicaReads replicaReads() {
        return replicaReads;
    }

    /** Runs {@code b} as the transaction's batch in flight. */
    void run(TcTxnImpl t, OpBatch b) {
        t.batch = b;
        advance(t);
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
                done(t, b);
            }
            return;
        }
        Op op = b.ops.get(b.next);
        if (b.ccPending > 0 && tc.module().needsPriorOps(t, op)) {
            flush(t);
            return; // goes on when the replies are in
        }
        if (refusesWrite(t, op)) {
            return;
        }
        int i = b.next++;
        tc.module().beforeOp(t, op, () -> {
            if (servedHere(t, b, i, op)) {
                return;
            }
            if (replicaReads.tryBackup(t, b, i, op)) {
                advance(t);
                return;
            }
            b.staged.add(i);
            if (!replicated(op)) {
                b.ccPending++;
            }
            advance(t);
        }, why -> tc.commits().abort(t, why));
    }

    /**
     * A plain read some level answers at the coordinator ({@code ServesReads}, e.g. a cache of remote reads): its result
     * is in, the history records it as a data server would (with the version's write recorded again before it, as a
     * copy: {@code HistoryLog.copy}), the TC parts run bottom-up with no dependencies, and the batch goes on. Returns
     * false when the read must go to its data server.
     */
    private boolean servedHere(TcTxnImpl t, OpBatch b, int i, Op op) {
        if (op.kind() != org.tebaldi.core.txn.OpKind.READ || replicated(op)) {
            return false;
        }
        org.tebaldi.core.cc.LocalRead r = tc.module().serveRead(t, op);
        if (r == null) {
            return false;
        }
        b.results[i] = r.row();
        if (tc.history() != null) {
            if (r.writer() != org.tebaldi.core.storage.Version.INITIAL_WRITER) {
                // the write again, as a copy, before the read: a streamed check meets each node's records in order,
                // and this node's chunk may be handed over before the data server's that holds the write
                tc.history().copy(r.writer(), op.key(), r.writeSeq());
            }
            tc.history().read(t.id(), op.key(), r.writer(), r.writeSeq());
        }
        advance(t);
        return true;
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
        String table = tc.database().catalog().table(op.key().table()).name();
        tc.commits().abort(t, AbortReason.error(t.type.name() + " is declared read-only but issued " + op.kind()
                + " on " + table + Arrays.toString(op.key().parts())
                + "; declare the type as an update type or remove the write"));
        return true;
    }

    /** Sends the staged operations: one message per data server, in program order within each. */
    private void flush(TcTxnImpl t) {
        OpBatch b = t.batch;
        if (b.staged.isEmpty() || t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        Map<Integer, List<Integer>> byDs = new LinkedHashMap<>();
        int replicaDs = replicaServer(t, b);
        for (int i : b.staged) {
            Op op = b.ops.get(i);
            int ds = replicated(op) ? replicaDs : tc.partitionOf(op.key());
            if (tc.failures().dataServerDown(ds)) {
                tc.commits().abort(t, AbortReason.error("data server ds" + ds + " is down"));
                return;
            }
            byDs.computeIfAbsent(ds, x -> new ArrayList<>()).add(i);
            if (op.kind().writes()) {
                t.markWriter(ds);
            }
        }
        b.staged.clear();
        Object[] meta = tc.module().meta(t);
        t.sentAt = tc.nowMicros();
        for (Map.Entry<Integer, List<Integer>> e : byDs.entrySet()) {
            List<Integer> idx = e.getValue();
            t.addParticipant(e.getKey());
            t.awaiting += idx.size();
            b.inFlight += idx.size();
            if (idx.size() == 1) {
                int i = idx.get(0);
                tc.sendMessage(NodeId.ds(e.getKey()), new ExecRequest(t.header, b.firstOpId + i, b.ops.get(i), meta));
                continue;
            }
            int[] ids = new int[idx.size()];
            Op[] ops = new Op[idx.size()];
            for (int k = 0; k < ids.length; k++) {
                ids[k] = b.firstOpId + idx.get(k);
                ops[k] = b.ops.get(idx.get(k));
            }
            tc.sendMessage(NodeId.ds(e.getKey()), new ExecBatch(t.header, ids, ops, meta));
        }
    }

    /**
     * Where reads of replicated tables go: the transaction's first participant; before it has one, the server of the
     * first staged operation that has a home (so they share its request), else data server 0.
     */
    private int replicaServer(TcTxnImpl t, OpBatch b) {
        if (t.home >= 0) {
            return t.home;
        }
        for (int i : b.staged) {
            if (!replicated(b.ops.get(i))) {
                return tc.partitionOf(b.ops.get(i).key());
            }
        }
        return 0;
    }

    private boolean replicated(Op op) {
        return tc.database().catalog().table(op.key().table()).replicated();
    }

    /** One operation's reply: reports, dependencies, the TC parts bottom-up, then the batch goes on. */
    void onReply(ExecReply r) {
        TcTxnImpl t = tc.live(r.txnId());
        if (t == null || t.status == TcTxnImpl.Status.DONE || t.batch == null || !t.batch.has(r.opId())) {
            return;
        }
        OpBatch b = t.batch;
        t.awaiting--;
        tc.module().reports(t, r.reports());
        if (!r.ok()) {
            tc.commits().abort(t, new AbortReason(r.reason(), r.retryable()));
            return;
        }
        List<TxnDep> nd = r.deps() == null ? List.of() : Arrays.asList(r.deps());
        t.deps.addAll(nd);
        if (t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        b.results[r.opId() - b.firstOpId] = r.row();
        if (!replicated(b.op(r.opId()))) {
            b.ccPending--;
        }
        if (--b.inFlight > 0) {
            return;
        }
        if (b.next < b.ops.size()) {
            advance(t);
        } else if (b.staged.isEmpty()) {
            done(t, b);
        }
    }

    /** A read a backup answered ({@link ReplicaReads}): its result is in; the batch goes on when nothing is left. */
    void servedElsewhere(TcTxnImpl t, OpBatch b) {
        if (t.status == TcTxnImpl.Status.DONE || b.inFlight > 0) {
            return;
        }
        if (b.next < b.ops.size()) {
            advance(t);
        } else if (b.staged.isEmpty()) {
            done(t, b);
        }
    }

    /** A read a backup refused ({@link ReplicaReads}) goes to its primary, as every other operation does. */
    void toPrimary(TcTxnImpl t, OpBatch b, int i) {
        b.staged.add(i);
        b.ccPending++;
        flush(t);
    }

    private void done(TcTxnImpl t, OpBatch b) {
        t.batch = null;
        t.driver.batchDone(t, b);
    }
}
