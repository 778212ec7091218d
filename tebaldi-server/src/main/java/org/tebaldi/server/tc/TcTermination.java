package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.server.msg.OutcomeQuery;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Handlers;

/**
 * Termination as a coordinator's feature (docs/architecture.md, "Failures"; always on): the periodic sweep that
 * ends transactions stuck by a lost message or a failed service — one awaiting data-server replies for longer than
 * the reply timeout aborts non-retryably (process mode: the server may be gone); one begun longer ago than the
 * transaction timeout ({@link ClusterConfig#withTxnTimeout}) aborts retryably — then runs every feature's sweep
 * point (this one forgets old commit decisions; durability sends again the durable notices not acknowledged); and
 * the answers to data servers' {@link OutcomeQuery}s from the decisions kept ({@link TcDecisions}). The sweep runs
 * only with a timeout, every quarter of the shorter one. Coordinator thread only.
 */
final class TcTermination implements TcFeature {
    private final TransactionCoordinator tc;
    private final TcDecisions decisions;
    private long replyTimeoutMicros;

    TcTermination(TransactionCoordinator tc) {
        this.tc = tc;
        this.decisions = new TcDecisions(tc);
    }

    /** The reply timeout, µs (0: none). Set before the node starts. */
    void setReplyTimeout(long micros) {
        this.replyTimeoutMicros = micros;
    }

    /** The record of commit decisions kept for outcome queries. */
    TcDecisions decisions() {
        return decisions;
    }

    @Override
    public void register(Handlers handlers) {
        handlers.on(OutcomeQuery.class,
                (from, q) -> decisions.answer(from, q.txnId(), tc.live(q.txnId()) != null));
    }

    @Override
    public void start() {
        if (replyTimeoutMicros > 0 || tc.config().txnTimeoutMicros() > 0) {
            sweep();
        }
    }

    @Override
    public void sweep(long nowMicros) {
        decisions.prune(nowMicros);
    }

    private void sweep() {
        long now = tc.nowMicros();
        long txnTimeout = tc.config().txnTimeoutMicros();
        List<TcTxnImpl> late = new ArrayList<>();
        List<TcTxnImpl> old = new ArrayList<>();
        for (TcTxnImpl t : tc.live()) {
            if (replyTimeoutMicros > 0 && t.awaiting > 0 && now - t.sentAt > replyTimeoutMicros) {
                late.add(t);
            } else if (txnTimeout > 0 && now - t.begunAt > txnTimeout && t.status != TcTxnImpl.Status.HELD) {
                old.add(t);
            }
        }
        for (TcTxnImpl t : late) {
            tc.commits().abort(t, AbortReason.error("no reply from data server(s) "
                    + Arrays.toString(t.participants()) + " within " + replyTimeoutMicros / 1000 + " ms"));
        }
        for (TcTxnImpl t : old) {
            tc.commits().abort(t, new AbortReason("timed out: not decided within " + txnTimeout / 1000.0
                    + " ms (a message was lost or a service failed)", true));
        }
        tc.features().each(f -> f.sweep(now));
        long period = Math.min(replyTimeoutMicros > 0 ? Math.max(100_000, replyTimeoutMicros / 4) : Long.MAX_VALUE,
                txnTimeout > 0 ? Math.max(1_000, txnTimeout / 4) : Long.MAX_VALUE);
        tc.schedule(period, this::sweep);
    }
}
