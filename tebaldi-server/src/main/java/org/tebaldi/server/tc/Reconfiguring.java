package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.msg.BeginTxn;
import org.tebaldi.server.msg.CallProc;
import org.tebaldi.server.msg.Reconfig;

/**
 * A coordinator's side of both reconfiguration protocols. Partial restart (dissertation §5.5.1) — clean-up: new
 * transactions are held in a queue while running ones finish (or are force-aborted after the server's timeout);
 * once none is left, a {@link Reconfig.Drained} marker goes to every data server behind this coordinator's last
 * commit or abort on that link, and {@link Reconfig.CleanupDone} to the server; prepare: rebuild the CC module for
 * the new tree; apply: start the queued transactions. Online update (§5.5.2) — apply: install the merged tree, new
 * transactions go to the new subtree at once; retire: once no transaction of this coordinator is left in the old
 * subtree, drained markers to every data server, drop the old subtree's parts, {@link Reconfig.Retired}. A data
 * server whose marker is overdue (lost with a dropped connection) asks again ({@link Reconfig.DrainedQuery}); the
 * marker is sent again once this coordinator has drained for that epoch.
 */
final class Reconfiguring {
    private long epoch = -1;
    private NodeId server;
    private boolean drainedSent;
    private int forceAborted;
    private final List<Object[]> queued = new ArrayList<>();
    private Reconfig.Retire retiring;
    private NodeId retireServer;
    /** The last epoch whose drained markers this coordinator sent (-1: none). */
    private long drainedEpoch = -1;

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
        if (msg instanceof Reconfig.UpdateApply u) {
            tc.update(u.tree());
            tc.sendMessage(from, new Reconfig.Applied(u.epoch()));
            return true;
        }
        if (msg instanceof Reconfig.Retire r) {
            retiring = r;
            retireServer = from;
            ended(tc);
            return true;
        }
        if (msg instanceof Reconfig.DrainedQuery q) {
            if (q.epoch() <= drainedEpoch) {
                tc.sendMessage(from, new Reconfig.Drained(q.epoch()));
            }
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

    /** A transaction ended (or clean-up or retiring began): report drained once nothing runs (in the old subtree). */
    void ended(TransactionCoordinator tc) {
        if (retiring != null && tc.liveIn(retiring.subtree()) == 0) {
            Reconfig.Retire r = retiring;
            retiring = null;
            drainedEpoch = Math.max(drainedEpoch, r.epoch());
            for (int ds = 0; ds < tc.dataServers(); ds++) {
                tc.sendMessage(NodeId.ds(ds), new Reconfig.Drained(r.epoch()));
            }
            tc.update(r.tree());
            tc.sendMessage(retireServer, new Reconfig.Retired(r.epoch()));
        }
        if (epoch >= 0 && !drainedSent && tc.liveTransactions() == 0) {
            drainedSent = true;
            drainedEpoch = Math.max(drainedEpoch, epoch);
            for (int ds = 0; ds < tc.dataServers(); ds++) {
                tc.sendMessage(NodeId.ds(ds), new Reconfig.Drained(epoch));
            }
            tc.sendMessage(server, new Reconfig.CleanupDone(epoch, forceAborted));
        }
    }
}
