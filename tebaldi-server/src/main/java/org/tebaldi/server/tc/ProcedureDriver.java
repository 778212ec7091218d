package org.tebaldi.server.tc;

import java.util.Arrays;
import java.util.List;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.ProcRun;
import org.tebaldi.core.proc.ProcStep;
import org.tebaldi.core.txn.AbortReason;

/**
 * Stored procedures: the coordinator runs the procedure (as the tree's mechanisms rewrote it) and sends what it
 * issues. Batched (the default, {@code ClusterConfig.opBatching}): every operation that does not need an earlier
 * result goes in one batch ({@link ProcRun#resume}); otherwise one operation at a time ({@link ProcRun#next}). The
 * procedure's end requests the commit; its own abort aborts (not retryable).
 */
final class ProcedureDriver implements OpDriver {
    private final TransactionCoordinator tc;
    private final ProcRun run;
    private final boolean batched;

    ProcedureDriver(TransactionCoordinator tc, ProcRun run, boolean batched) {
        this.tc = tc;
        this.run = run;
        this.batched = batched;
    }

    @Override
    public void started(TcTxnImpl t) {
        proceed(t, null);
    }

    @Override
    public void batchDone(TcTxnImpl t, OpBatch b) {
        proceed(t, b.results);
    }

    /** Runs the procedure on to its next operations, its end or its abort; {@code results} null at first. */
    private void proceed(TcTxnImpl t, Row[] results) {
        ProcStep s;
        try {
            s = batched ? run.resume(results == null ? List.of() : Arrays.asList(results))
                    : run.next(results == null ? null : results[0]);
        } catch (RuntimeException e) {
            tc.commits().abort(t, AbortReason.error(t.type.name() + ": " + e.getMessage()));
            return;
        }
        if (s instanceof ProcStep.Batch b) {
            issue(t, b.ops());
        } else if (s instanceof ProcStep.Issue is) {
            issue(t, List.of(is.op()));
        } else if (s instanceof ProcStep.Done d) {
            t.outputs = d.outputs();
            tc.commits().request(t);
        } else if (s instanceof ProcStep.Abort a) {
            tc.commits().abort(t, AbortReason.error("user abort: " + a.reason()));
        }
    }

    private void issue(TcTxnImpl t, List<org.tebaldi.core.txn.Op> ops) {
        OpBatch b = new OpBatch(ops, t.nextOpId, false);
        t.nextOpId += ops.size();
        tc.executor().run(t, b);
    }
}
