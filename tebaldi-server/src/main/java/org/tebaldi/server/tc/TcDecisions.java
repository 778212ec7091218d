package org.tebaldi.server.tc;

import java.util.ArrayDeque;
import java.util.HashMap;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.msg.CommitRequest;

/**
 * The coordinator's side of the two-phase-commit termination protocol (docs/architecture.md, "Failures"): with a
 * transaction timeout set ({@code ClusterConfig#withTxnTimeout}), each commit decision is kept for
 * {@value #RETENTION_FACTOR} timeouts, and a data server's {@code OutcomeQuery} is answered with the commit request
 * again, or — the transaction being neither live nor recently committed — with an abort (presumed abort: an
 * aborted transaction leaves no record). Limit: a participant that hears nothing of a committed transaction for
 * longer than the retention would be told to abort it; the retention is 20× the time after which it asks.
 * Coordinator thread only.
 */
final class TcDecisions {
    /** Decisions are kept this many transaction timeouts. */
    static final int RETENTION_FACTOR = 20;

    private record Decision(CommitRequest request, long atMicros) {
    }

    private final TransactionCoordinator tc;
    private final HashMap<Long, CommitRequest> committed = new HashMap<>();
    private final ArrayDeque<Decision> byAge = new ArrayDeque<>();

    TcDecisions(TransactionCoordinator tc) {
        this.tc = tc;
    }

    /** A commit was decided and sent (kept only when the transaction timeout is on). */
    void committed(CommitRequest r) {
        if (tc.config().txnTimeoutMicros() > 0) {
            committed.put(r.txnId(), r);
            byAge.add(new Decision(r, tc.nowMicros()));
        }
    }

    /** Answers data server {@code from}'s query about {@code txn} ({@code live}: the transaction is still live). */
    void answer(NodeId from, long txn, boolean live) {
        if (live) {
            return;
        }
        CommitRequest r = committed.get(txn);
        tc.sendMessage(from, r != null ? r : new AbortRequest(txn));
    }

    /** Forgets decisions older than the retention. */
    void prune(long nowMicros) {
        long keep = RETENTION_FACTOR * tc.config().txnTimeoutMicros();
        while (!byAge.isEmpty() && nowMicros - byAge.peek().atMicros() > keep) {
            committed.remove(byAge.poll().request().txnId());
        }
    }
}
