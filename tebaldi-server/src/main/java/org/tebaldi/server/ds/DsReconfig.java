package org.tebaldi.server.ds;

import java.util.HashMap;
import java.util.Map;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.msg.Reconfig;

/**
 * A data server's side of both reconfiguration protocols. Partial restart (dissertation §5.5.1): the prepare
 * request waits until every coordinator's {@link Reconfig.Drained} marker arrived — each travels behind that
 * coordinator's last commit or abort on the FIFO link — then rebuilds the CC module. Online update (§5.5.2): the
 * merged tree is installed at once (its old subtree keeps running for transactions already in it); the retire
 * request waits for every coordinator's marker in the same way, then drops the old subtree's CC parts.
 */
final class DsReconfig {
    private final Map<Long, Integer> drained = new HashMap<>();
    private Reconfig.Prepare pendingPrepare;
    private Reconfig.Retire pendingRetire;
    private NodeId server;

    /** Handles a reconfiguration message; false if {@code msg} is not one. */
    boolean intercept(DataServer ds, NodeId from, Object msg) {
        if (msg instanceof Reconfig.Drained d) {
            drained.merge(d.epoch(), 1, Integer::sum);
        } else if (msg instanceof Reconfig.Prepare p) {
            pendingPrepare = p;
            server = from;
        } else if (msg instanceof Reconfig.Retire r) {
            pendingRetire = r;
            server = from;
        } else if (msg instanceof Reconfig.UpdatePrepare u) {
            ds.updateCc(u.tree());
            ds.sendMessage(from, new Reconfig.PrepareDone(u.epoch()));
            return true;
        } else {
            return false;
        }
        proceed(ds);
        return true;
    }

    private void proceed(DataServer ds) {
        if (pendingPrepare != null && allDrained(ds, pendingPrepare.epoch())) {
            Reconfig.Prepare p = pendingPrepare;
            pendingPrepare = null;
            ds.restartCc(p.tree());
            ds.sendMessage(server, new Reconfig.PrepareDone(p.epoch()));
        }
        if (pendingRetire != null && allDrained(ds, pendingRetire.epoch())) {
            Reconfig.Retire r = pendingRetire;
            pendingRetire = null;
            ds.updateCc(r.tree());
            ds.sendMessage(server, new Reconfig.Retired(r.epoch()));
        }
    }

    private boolean allDrained(DataServer ds, long epoch) {
        if (drained.getOrDefault(epoch, 0) < ds.coordinators()) {
            return false;
        }
        drained.remove(epoch);
        return true;
    }
}
