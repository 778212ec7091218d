package org.tebaldi.server.tc;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.TxnEnded;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.ValidateRequest;

/**
 * Validation and two-phase commit at the coordinator (dissertation §4.3.1, §4.5.2, §4.5.4): the TC parts' start of
 * validation top-down, one validation request per participant, the votes, the TC parts' decision bottom-up, then
 * the commit — every level's commit metadata, the TC parts leaf first, one commit message per participant, the
 * outcome to the client (held until durable with synchronous durability) — or the abort at any point before.
 * Coordinator thread only.
 */
final class TcCommit {
    private final TransactionCoordinator tc;

    TcCommit(TransactionCoordinator tc) {
        this.tc = tc;
    }

    /** The commit was requested (by the client or the procedure's end): validate once no operation is in flight. */
    void request(TcTxnImpl t) {
        t.commitRequested = true;
        if (t.quiet()) {
            validate(t);
        }
    }

    /** Starts validation: the TC parts top-down, then one request per participant. */
    void validate(TcTxnImpl t) {
        t.status = TcTxnImpl.Status.VALIDATING;
        tc.module().beforeValidation(t, () -> sendValidation(t), why -> abort(t, why));
    }

    private void sendValidation(TcTxnImpl t) {
        if (t.status != TcTxnImpl.Status.VALIDATING) {
            return;
        }
        int[] ps = t.participants();
        if (ps.length == 0) {
            decide(t);
            return;
        }
        t.votes = ps.length;
        t.awaiting = ps.length;
        t.sentAt = tc.nowMicros();
        Object[] meta = tc.module().meta(t);
        int writers = tc.durable() ? t.writers() : 0;
        for (int ds : ps) {
            tc.sendMessage(NodeId.ds(ds), new ValidateRequest(t.id(), meta, writers));
        }
    }

    /** A participant's vote, with the dependencies and reports found during its validation. */
    void onReply(ValidateReply r) {
        TcTxnImpl t = tc.live(r.txnId());
        if (t == null || t.status != TcTxnImpl.Status.VALIDATING) {
            return;
        }
        t.awaiting--;
        t.epoch = Math.max(t.epoch, r.epoch());
        if (r.deps() != null) {
            t.deps.addAll(Arrays.asList(r.deps()));
        }
        tc.module().reports(t, r.reports());
        if (t.status != TcTxnImpl.Status.VALIDATING) {
            return;
        }
        if (!r.ok()) {
            abort(t, new AbortReason(r.reason(), r.retryable()));
        } else if (--t.votes == 0) {
            decide(t);
        }
    }

    private void decide(TcTxnImpl t) {
        tc.module().validate(t, () -> afterDecide(0, t), why -> abort(t, why));
    }

    /** The "after decide" point from feature {@code i} on (epoch-based commit holds {@code t}); then the commit. */
    private void afterDecide(int i, TcTxnImpl t) {
        List<TcFeature> fs = tc.features().list();
        if (i == fs.size()) {
            commit(t);
        } else {
            fs.get(i).afterDecide(t, () -> afterDecide(i + 1, t));
        }
    }

    /** The "answer commit" point from feature {@code i} on (durability may hold the answer); then the client. */
    private void answerCommit(int i, TcTxnImpl t, TxnEnded ended) {
        List<TcFeature> fs = tc.features().list();
        if (i == fs.size()) {
            tc.sendMessage(t.client, ended);
        } else {
            fs.get(i).answerCommit(t, ended, e -> answerCommit(i + 1, t, e));
        }
    }

    /**
     * Commits a decided transaction: its commit messages, its outcome to the client. Under epoch-based commit this
     * runs when the epoch coordinator commits the transaction's epoch ({@link TcEpochs}), and durability may hold
     * the client's answer until the commit is durable ({@link TcDurability}).
     */
    void commit(TcTxnImpl t) {
        if (t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        t.status = TcTxnImpl.Status.DONE;
        tc.forget(t);
        Object[] cm = tc.module().commitMeta(t);
        tc.module().finish(t, true);
        CommitRequest request = new CommitRequest(t.id(), cm, t.epoch);
        for (int ds : t.participants()) {
            tc.sendMessage(NodeId.ds(ds), request);
        }
        tc.termination().decisions().committed(request);
        if (tc.history() != null) {
            tc.history().outcome(t.id(), true, t.type.name());
        }
        TxnEnded ended = new TxnEnded(t.reqId, t.id(), true, null, true, t.outputs);
        answerCommit(0, t, ended);
        tc.ended();
    }

    /**
     * Aborts a live transaction (a no-op once it ended): the TC parts leaf first, every participant, the client.
     * Under epoch-based commit a transaction whose epoch is prepared is not aborted here: only its epoch's decision
     * ends it ({@link #abortHeld}), or the epoch would commit at other coordinators and abort at this one.
     */
    void abort(TcTxnImpl t, AbortReason why) {
        if (t.status == TcTxnImpl.Status.HELD && t.heldEpoch != 0) {
            return;
        }
        abortHeld(t, why);
    }

    /** Aborts a transaction whatever its epoch: its epoch aborted (or a no-op once it ended). */
    void abortHeld(TcTxnImpl t, AbortReason why) {
        if (t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        t.status = TcTxnImpl.Status.DONE;
        tc.forget(t);
        tc.module().finish(t, false);
        for (int ds : t.participants()) {
            tc.sendMessage(NodeId.ds(ds), new AbortRequest(t.id()));
        }
        if (tc.history() != null) {
            tc.history().outcome(t.id(), false, t.type.name());
        }
        tc.sendMessage(t.client, new TxnEnded(t.reqId, t.id(), false, why.message(), why.retryable(), Map.of()));
        tc.ended();
    }

    /** Aborts every live transaction (a recovery round began, or a service failed). */
    void abortAll(String why) {
        for (TcTxnImpl t : tc.live()) {
            abort(t, AbortReason.conflict(why));
        }
    }
}
