package org.tebaldi.server.tc;

import java.util.ArrayDeque;
import java.util.List;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.msg.OpDone;
import org.tebaldi.server.msg.OpsDone;
import org.tebaldi.server.msg.TxnBegun;

/**
 * Interactive transactions: the client sends operations ({@code TxnOp}, one each, or {@code TxnOps}, several
 * together) and finally asks to commit. One batch runs at a time, in arrival order; batches that arrive meanwhile
 * wait here. Each batch's results go back as {@code OpDone} (a single operation) or {@code OpsDone}; a commit
 * requested while operations run starts validation once the last of them is answered.
 */
final class InteractiveDriver implements OpDriver {
    private final TransactionCoordinator tc;
    private final ArrayDeque<OpBatch> queued = new ArrayDeque<>(0);

    InteractiveDriver(TransactionCoordinator tc) {
        this.tc = tc;
    }

    @Override
    public void started(TcTxnImpl t) {
        tc.sendMessage(t.client, new TxnBegun(t.reqId, t.id()));
    }

    /** Operations from the client, numbered from {@code firstOpId}; {@code single} for a lone {@code TxnOp}. */
    void submit(TcTxnImpl t, List<Op> ops, int firstOpId, boolean single) {
        OpBatch b = new OpBatch(ops, firstOpId, single);
        if (t.batch == null) {
            tc.executor().run(t, b);
        } else {
            queued.add(b);
        }
    }

    @Override
    public void batchDone(TcTxnImpl t, OpBatch b) {
        if (b.single) {
            tc.sendMessage(t.client, new OpDone(t.id(), b.firstOpId, b.results[0]));
        } else {
            tc.sendMessage(t.client, new OpsDone(t.id(), b.firstOpId, b.results));
        }
        OpBatch next = queued.poll();
        if (next != null) {
            tc.executor().run(t, next);
        } else if (t.commitRequested) {
            tc.commits().validate(t);
        }
    }
}
