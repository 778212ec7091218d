package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.msg.BeginTxn;
import org.tebaldi.server.msg.CallProc;
import org.tebaldi.server.msg.Reconfig;

/**
 * A coordinator's side of the partial restart protocol (dissertation §5.5.1). Clean-up: new transactions are held
 * in a queue while running ones finish (or are force-aborted after the server's timeout); once none is left, a
 * {@link Reconfig.Drained} marker goes to every data server behind this coordinator's last commit or abort on that
 * link, and {@link Reconfig.CleanupDone} to the server. Prepare: rebuild the CC module for the new tree. Apply:
 * start the queued transactions.
 */
final class Reconfiguring {
    private long epoch = -1;
    private NodeId server;
    private boolean drainedSent;
    private int forceAborted;
    private final List<Object[]> queued = new ArrayList<>();

    /** Handles reconfiguration messages and holds back new transactions during clean-up; true if consumed. */
    boolean intercept(TransactionCoordinator tc, NodeId from, Object msg) {
        if (msg instanceof Reconfig.Cleanup c) {
            epoch = c.epoch();
            server = from;
            drainedSent = false;
            forceAborted = 0;
            if (c.forceAbortMicros() > 0) {
                tc.schedule(c.forceAbortMicros(), () -> {
                    if (epoch == c.epoch() && !drainedSent) {
                        for (TcTxnImpl t : tc.live()) {
                            forceAborted++;
                            tc.forceAbort(t);
                        }
                    }
                });
            }
            ended(tc);
            return true;
        }
        if (msg instanceof Reconfig.Prepare p) {
            tc.reinstall(p.tree());
            tc.sendMessage(from, new Reconfig.PrepareDone(p.epoch()));
            return true;
        }
        if (msg instanceof Reconfig.Apply) {
            epoch = -1;
            List<Object[]> held = new ArrayList<>(queued);
            queued.clear();
            for (Object[] q : held) {
                tc.replay((NodeId) q[0], q[1]);
            }
            return true;
        }
        if (epoch >= 0 && (msg instanceof BeginTxn || msg instanceof CallProc)) {
            queued.add(new Object[]{from, msg});
            return true;
        }
        return false;
    }

    /** A transaction ended (or clean-up began): report drained once nothing runs. */
    void ended(TransactionCoordinator tc) {
        if (epoch >= 0 && !drainedSent && tc.liveTransactions() == 0) {
            drainedSent = true;
            for (int ds = 0; ds < tc.dataServers(); ds++) {
                tc.sendMessage(NodeId.ds(ds), new Reconfig.Drained(epoch));
            }
            tc.sendMessage(server, new Reconfig.CleanupDone(epoch, forceAborted));
        }
    }
}
