package org.tebaldi.server.ds;

import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecReplies;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.ValidateRequest;

/**
 * A data server's side of the phases (dissertation §4.3.1, §4.5.2): executes requests (one operation, or a batch one
 * operation after the other with one reply message), validates — first the framework's own guarantees (no aborted
 * reads: wait for the writers a transaction read from; no intermediate reads: a doomed reader fails), then every
 * level bottom-up, then the precommit log with durability — and applies commits and aborts, every level in one
 * step. Every reply carries the dependencies and reports found since the previous one. Data-server thread only.
 */
final class DsPhases {
    private static final Logger LOG = LoggerFactory.getLogger(DsPhases.class);

    private final DataServer ds;

    DsPhases(DataServer ds) {
        this.ds = ds;
    }

    /** Why a continuation of a transaction that recovery dropped does nothing. */
    private static final AbortReason DROPPED = AbortReason.conflict("dropped by a recovery round at this server");

    /**
     * Whether {@code t} was dropped by a recovery round ({@link DsRecovery#dropEverything}): it is no longer this
     * server's transaction, though a continuation of it may still run — a batch's next operation after a parked one
     * was granted by a lock the old CC module released, or a validation that waited. Such a continuation must not
     * touch the store recovery rebuilds: a version it left there (uncommitted, never to be decided) would hide the
     * key's recovered version (dissertation §4.5.4).
     */
    boolean dropped(DsTxnImpl t) {
        return !t.finished() && (t.incarnation != ds.txns().incarnation() || ds.recovering());
    }

    // ---- execute -------------------------------------------------------------------------------------------

    void onExec(NodeId from, ExecRequest r) {
        DsTxnImpl t = ds.txns().forRequest(r.header(), r.meta());
        if (t != null) {
            exec(from, t, r);
        }
    }

    /**
     * A batch of operations: executed one after the other, each exactly as a single request would be; the replies
     * go back together ({@link #replyExec}).
     */
    void onExecBatch(NodeId from, ExecBatch b) {
        DsTxnImpl t = ds.txns().forRequest(b.header(), b.meta());
        if (t != null) {
            t.batch = new DsTxnImpl.BatchRun(from, b);
            exec(from, t, b.request(0));
        }
    }

    private void exec(NodeId from, DsTxnImpl t, ExecRequest r) {
        if (t.finished()) {
            replyExec(from, t, r.opId(), false, null, t.abortReason);
            return;
        }
        if (dropped(t)) {
            replyExec(from, t, r.opId(), false, null, DROPPED);
            return;
        }
        if (r.op().kind().writes()) {
            t.writeOps = true;
        }
        if (t.doomed != null) {
            AbortReason why = AbortReason.conflict(t.doomed);
            localAbort(t, why);
            replyExec(from, t, r.opId(), false, null, why);
            return;
        }
        if (ds.database().catalog().table(r.op().key().table()).replicated()) {
            readReplicated(from, t, r);
            return;
        }
        new OpExecution(ds, t, r, from).start();
    }

    /** Replicated tables are read-only after loading: no conflicts, so no concurrency control. */
    private void readReplicated(NodeId from, DsTxnImpl t, ExecRequest r) {
        Op op = r.op();
        if (op.kind().writes()) {
            AbortReason why = AbortReason.error("table " + ds.database().catalog().table(op.key().table()).name()
                    + " is replicated and read-only");
            localAbort(t, why);
            replyExec(from, t, r.opId(), false, null, why);
            return;
        }
        replyExec(from, t, r.opId(), true, ds.store().latestCommittedRow(op.key()), null);
    }

    /**
     * Answers one operation — or, inside a batch, collects the answer and runs the batch's next operation; the batch's
     * replies leave together after its last operation or its first failure.
     */
    void replyExec(NodeId to, DsTxnImpl t, int opId, boolean ok, Row row, AbortReason why) {
        ExecReply reply = new ExecReply(t.id(), opId, ok, row, why == null ? null : why.message(),
                why == null || why.retryable(), newDeps(t), t.takeReports());
        DsTxnImpl.BatchRun b = t.batch;
        if (b == null || b.request.opIds()[b.current] != opId) {
            ds.send(to, reply);
            return;
        }
        b.replies.add(reply);
        if (!ok || b.current + 1 == b.request.ops().length) {
            t.batch = null;
            ds.send(b.from, new ExecReplies(b.replies.toArray(new ExecReply[0])));
            return;
        }
        int next = ++b.current;
        ds.later(() -> exec(b.from, t, b.request.request(next)));
    }

    // ---- validate ------------------------------------------------------------------------------------------

    void onValidate(NodeId from, ValidateRequest r) {
        DsTxnImpl t = ds.txns().get(r.txnId());
        if (t == null) {
            ds.send(from, new ValidateReply(r.txnId(), false, "unknown transaction at ds" + ds.dsIndex(), true, null,
                    null));
            return;
        }
        if (t.finished()) {
            replyValidate(from, t, t.abortReason, 0);
            return;
        }
        ds.txns().requestArrived(t, r.meta());
        int[] pending = {0};
        for (DsTxnImpl w : t.readFrom) {
            if (!w.finished()) {
                pending[0]++;
            }
        }
        if (pending[0] == 0) {
            afterReadFrom(from, t, r.writers());
            return;
        }
        for (DsTxnImpl w : t.readFrom) {
            if (!w.finished()) {
                ds.awaitFinish(w, committed -> {
                    if (--pending[0] == 0) {
                        afterReadFrom(from, t, r.writers());
                    }
                });
            }
        }
    }

    /** Every writer the transaction read from finished: a reader of an aborted writer fails (no aborted reads). */
    private void afterReadFrom(NodeId from, DsTxnImpl t, int writers) {
        for (DsTxnImpl w : t.readFrom) {
            if (!w.committed()) {
                t.doom("aborted read: read a version of " + w + ", which aborted");
            }
        }
        if (t.finished()) {
            replyValidate(from, t, t.abortReason, 0);
            return;
        }
        if (t.doomed != null) {
            AbortReason why = AbortReason.conflict(t.doomed);
            localAbort(t, why);
            replyValidate(from, t, why, 0);
            return;
        }
        ds.module().validate(t, () -> precommitted(from, t, writers), why -> {
            if (!t.finished()) {
                localAbort(t, why);
            }
            replyValidate(from, t, why, 0);
        });
    }

    /** Every CC passed validation here: the precommit log (with durability), then the vote. */
    private void precommitted(NodeId from, DsTxnImpl t, int writers) {
        if (dropped(t)) {
            replyValidate(from, t, DROPPED, 0);
            return;
        }
        beforeVote(0, t, writers, 0, epoch -> replyValidate(from, t, t.finished() ? t.abortReason : null, epoch));
    }

    /** The "before vote" point: feature {@code i} onwards, each passing the epoch to vote with on to the next. */
    private void beforeVote(int i, DsTxnImpl t, int writers, long epoch, java.util.function.LongConsumer vote) {
        java.util.List<DsFeature> fs = ds.features().list();
        if (i == fs.size()) {
            vote.accept(epoch);
        } else {
            fs.get(i).beforeVote(t, writers, epoch, e -> beforeVote(i + 1, t, writers, e, vote));
        }
    }

    private void replyValidate(NodeId to, DsTxnImpl t, AbortReason why, long epoch) {
        ds.send(to, new ValidateReply(t.id(), why == null, why == null ? null : why.message(),
                why == null || why.retryable(), newDeps(t), t.takeReports(), epoch));
    }

    // ---- commit and abort ----------------------------------------------------------------------------------

    void onCommit(CommitRequest r) {
        ds.features().each(f -> f.beforeCommit(r.epoch()));
        DsTxnImpl t = ds.txns().remove(r.txnId());
        if (t == null) {
            // a repeated answer: the termination protocol asked twice (its coordinator paused past the timeout, or a
            // reconfiguration asked again) and both answers came; the first committed it (seed 2092 of the burn)
            LOG.debug("ds{}: commit of {}, which already ended here", ds.dsIndex(), r.txnId());
            return;
        }
        if (t.finished()) {
            LOG.error("ds{}: commit of {} which is aborted", ds.dsIndex(), r.txnId());
            return;
        }
        for (DsTxnImpl.Written w : t.writes) {
            w.version().commit();
        }
        ds.module().finish(t, true, r.meta());
        ds.features().each(f -> f.afterCommit(t, r.epoch()));
        ds.recorder().outcome(t, true, ds.database().type(t.typeId()).name());
        finish(t, true);
    }

    void onAbort(AbortRequest r) {
        DsTxnImpl t = ds.txns().remove(r.txnId());
        if (t != null && !t.finished()) {
            localAbort(t, AbortReason.conflict("aborted by coordinator"));
        }
    }

    /**
     * Aborts here at once, releasing locks and versions; the record stays until the TC's abort arrives. A transaction
     * a recovery round dropped is only marked aborted: its locks, versions and GC epoch belong to the CC module,
     * store and GC state recovery replaced, so releasing them here would act on the rebuilt ones (a lock-wait timeout
     * of the old module's lock table, firing after the round, removed the lock state a live transaction held on the
     * same key in the new one, and a second writer went ahead: a lost update).
     */
    void localAbort(DsTxnImpl t, AbortReason why) {
        if (dropped(t)) {
            t.abortReason = why;
            for (Consumer<Boolean> c : t.finish(false)) {
                ds.later(() -> c.accept(false));
            }
            t.released();
            return;
        }
        ds.txns().versionsRemoved(t.writes.size());
        for (DsTxnImpl.Written w : t.writes) {
            w.chain().remove(w.version());
            w.version().invalidateReaders("aborted read: writer " + t + " aborted");
        }
        ds.module().finish(t, false, null);
        ds.recorder().versionsRemoved(t, ds.database().type(t.typeId()).name());
        ds.features().each(f -> f.afterAbort(t));
        t.abortReason = why;
        finish(t, false);
    }

    private void finish(DsTxnImpl t, boolean committed) {
        ds.gc().leave(t, committed);
        for (Consumer<Boolean> c : t.finish(committed)) {
            ds.later(() -> c.accept(committed));
        }
        t.released();
    }

    // ---- dependencies --------------------------------------------------------------------------------------

    /** Records that {@code t} depends on {@code other} at {@code level} (once; nothing for finished ones). */
    void addDependency(DsTxnImpl t, DsTxn other, int level) {
        if (other == t || other.finished()) {
            return;
        }
        for (DsTxn.Dependency d : t.deps) {
            if (d.on() == other && d.level() == level) {
                return;
            }
        }
        t.deps.add(new DsTxn.Dependency(other, level));
    }

    /** The dependencies found since the last reply, or null. */
    private static TxnDep[] newDeps(DsTxnImpl t) {
        int n = t.deps.size() - t.reportedDeps;
        if (n <= 0) {
            return null;
        }
        TxnDep[] out = new TxnDep[n];
        for (int i = 0; i < n; i++) {
            DsTxn.Dependency d = t.deps.get(t.reportedDeps + i);
            out[i] = new TxnDep(d.on().id(), d.on().typeId(), d.on().leaf(), d.on().instance(), d.level());
        }
        t.reportedDeps = t.deps.size();
        return out;
    }
}
