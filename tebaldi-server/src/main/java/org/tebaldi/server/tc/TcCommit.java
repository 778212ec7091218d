package org.tebaldi.server.tc;

import java.util.Arrays;
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
        int writers = tc.durability() == null ? 0 : t.writers();
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
        tc.module().validate(t, () -> {
            if (tc.epochs() != null) {
                tc.epochs().hold(t);
            } else {
                commit(t);
            }
        }, why -> abort(t, why));
    }

    /**
     * Commits a decided transaction: its commit messages, its outcome to the client. Under epoch-based commit this
     * runs when the epoch coordinator commits the transaction's epoch ({@link TcEpochs}).
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
        tc.decisions().committed(request);
        if (tc.history() != null) {
            tc.history().outcome(t.id(), true, t.type.name());
        }
        TxnEnded ended = new TxnEnded(t.reqId, t.id(), true, null, true, t.outputs);
        if (tc.durability() != null) {
            tc.durability().committed(t.client, t.id(), t.epoch, ended);
        } else {
            tc.sendMessage(t.client, ended);
        }
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
}
