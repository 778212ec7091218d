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
 *
 * <p>Every request is idempotent per epoch, because the server sends a request again to a node whose answer is
 * overdue ({@code ReconfigServer}, a dropped connection loses what was in flight): a step already taken is answered
 * again without being taken twice, one still under way is left to answer by itself, and a copy of an earlier step
 * delivered late (held by a dropped link) changes nothing.
 */
final class Reconfiguring {
    /** The partial restart whose clean-up or apply is under way (-1: none). */
    private long epoch = -1;
    private NodeId server;
    private boolean drainedSent;
    private int forceAborted;
    private final List<Object[]> queued = new ArrayList<>();
    private Reconfig.Retire retiring;
    private NodeId retireServer;
    /** The last epoch whose drained markers this coordinator sent (-1: none). */
    private long drainedEpoch = -1;
    /** The last epoch prepared, applied (partial restart), update-applied and retired here (-1: none). */
    private long preparedEpoch = -1;
    private long appliedEpoch = -1;
    private long updatedEpoch = -1;
    private long retiredEpoch = -1;

    /** Handles reconfiguration messages and holds back new transactions during clean-up; true if consumed. */
    boolean intercept(TransactionCoordinator tc, NodeId from, Object msg) {
        if (msg instanceof Reconfig.Cleanup c) {
            cleanup(tc, from, c);
            return true;
        }
        if (msg instanceof Reconfig.Prepare p) {
            if (p.epoch() > preparedEpoch) {
                preparedEpoch = p.epoch();
                tc.reinstall(p.tree());
            }
            tc.sendMessage(from, new Reconfig.PrepareDone(p.epoch()));
            return true;
        }
        if (msg instanceof Reconfig.UpdateApply u) {
            if (u.epoch() > updatedEpoch) {
                updatedEpoch = u.epoch();
                tc.update(u.tree());
            }
            tc.sendMessage(from, new Reconfig.Applied(u.epoch()));
            return true;
        }
        if (msg instanceof Reconfig.Retire r) {
            if (r.epoch() <= retiredEpoch) {
                tc.sendMessage(from, new Reconfig.Retired(r.epoch()));
            } else if (retiring == null || retiring.epoch() != r.epoch()) {
                retiring = r;
                retireServer = from;
                ended(tc);
            }
            return true;
        }
        if (msg instanceof Reconfig.DrainedQuery q) {
            if (q.epoch() <= drainedEpoch) {
                tc.sendMessage(from, new Reconfig.Drained(q.epoch()));
            }
            return true;
        }
        if (msg instanceof Reconfig.Apply a) {
            if (a.epoch() == epoch) {
                apply(tc);
            }
            if (a.epoch() <= appliedEpoch) {
                tc.sendMessage(from, new Reconfig.Applied(a.epoch()));
            }
            return true;
        }
        if (epoch >= 0 && (msg instanceof BeginTxn || msg instanceof CallProc)) {
            queued.add(new Object[]{from, msg});
            return true;
        }
        return false;
    }

    private void cleanup(TransactionCoordinator tc, NodeId from, Reconfig.Cleanup c) {
        if (c.epoch() <= appliedEpoch) {
            return; // a late copy of a finished clean-up
        }
        if (c.epoch() == epoch) {
            if (drainedSent) {
                tc.sendMessage(from, new Reconfig.CleanupDone(epoch, forceAborted));
            }
            return;
        }
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
    }

    private void apply(TransactionCoordinator tc) {
        appliedEpoch = epoch;
        epoch = -1;
        List<Object[]> held = new ArrayList<>(queued);
        queued.clear();
        for (Object[] q : held) {
            tc.replay((NodeId) q[0], q[1]);
        }
    }

    /** A transaction ended (or clean-up or retiring began): report drained once nothing runs (in the old subtree). */
    void ended(TransactionCoordinator tc) {
        if (retiring != null && tc.liveIn(retiring.subtree()) == 0) {
            Reconfig.Retire r = retiring;
            retiring = null;
            drainedEpoch = Math.max(drainedEpoch, r.epoch());
            retiredEpoch = r.epoch();
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
