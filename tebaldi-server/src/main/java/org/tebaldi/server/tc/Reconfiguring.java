package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.AbortReason;
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
final class Reconfiguring implements TcFeature {
    private final TransactionCoordinator tc;
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

    Reconfiguring(TransactionCoordinator tc) {
        this.tc = tc;
    }

    /** Handles reconfiguration messages and holds back new transactions during clean-up; true if consumed. */
    @Override
    public boolean intercept(NodeId from, Object msg) {
        if (msg instanceof Reconfig.Cleanup c) {
            cleanup(from, c);
            return true;
        }
        if (msg instanceof Reconfig.Prepare p) {
            if (p.epoch() > preparedEpoch) {
                preparedEpoch = p.epoch();
                reinstall(p.tree());
            }
            tc.sendMessage(from, new Reconfig.PrepareDone(p.epoch()));
            return true;
        }
        if (msg instanceof Reconfig.UpdateApply u) {
            if (u.epoch() > updatedEpoch) {
                updatedEpoch = u.epoch();
                update(u.tree());
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
                txnEnded();
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
                apply();
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

    private void cleanup(NodeId from, Reconfig.Cleanup c) {
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
                        tc.commits().abort(t, AbortReason.conflict("aborted to reconfigure the CC tree"));
                    }
                }
            });
        }
        txnEnded();
    }

    private void apply() {
        appliedEpoch = epoch;
        epoch = -1;
        List<Object[]> held = new ArrayList<>(queued);
        queued.clear();
        for (Object[] q : held) {
            tc.replay((NodeId) q[0], q[1]);
        }
    }

    /** A transaction ended (or clean-up or retiring began): report drained once nothing runs (in the old subtree). */
    @Override
    public void txnEnded() {
        if (retiring != null && liveIn(retiring.subtree()) == 0) {
            Reconfig.Retire r = retiring;
            retiring = null;
            drainedEpoch = Math.max(drainedEpoch, r.epoch());
            retiredEpoch = r.epoch();
            for (int ds = 0; ds < tc.config().dataServers(); ds++) {
                tc.sendMessage(NodeId.ds(ds), new Reconfig.Drained(r.epoch()));
            }
            update(r.tree());
            tc.sendMessage(retireServer, new Reconfig.Retired(r.epoch()));
        }
        if (epoch >= 0 && !drainedSent && tc.liveTransactions() == 0) {
            drainedSent = true;
            drainedEpoch = Math.max(drainedEpoch, epoch);
            for (int ds = 0; ds < tc.config().dataServers(); ds++) {
                tc.sendMessage(NodeId.ds(ds), new Reconfig.Drained(epoch));
            }
            tc.sendMessage(server, new Reconfig.CleanupDone(epoch, forceAborted));
        }
    }

    /** Rebuilds the CC module for another tree (prepare phase); storage is untouched. */
    private void reinstall(org.tebaldi.core.tree.CcTree tree) {
        tc.module().install(tc.config().withTree(tree));
    }

    /** Online update: switches to a tree derived from the current one with node ids kept ({@link TcModule}). */
    private void update(org.tebaldi.core.tree.CcTree tree) {
        tc.module().update(tc.config().withTree(tree));
    }

    /** Live transactions whose leaf is in the subtree rooted at node {@code subtree} of the current tree. */
    private int liveIn(int subtree) {
        org.tebaldi.core.tree.CcNode root = tc.config().tree().node(subtree);
        return root == null ? 0 : (int) tc.live().stream().filter(t -> root.contains(t.leaf())).count();
    }
}
