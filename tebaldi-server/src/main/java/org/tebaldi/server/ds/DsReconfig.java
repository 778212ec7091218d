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
    /** Every marker of {@link #pendingPrepare}'s epoch arrived; waiting for held transactions to learn outcomes. */
    private boolean prepareDrained;
    private Reconfig.Retire pendingRetire;
    private NodeId server;
    /** Chains written since the last partial restart (the only ones with CC metadata to re-base). */
    private final java.util.List<org.tebaldi.core.storage.VersionChain> written = new java.util.ArrayList<>();

    /** A transaction added a version to {@code chain}: remember it for the next re-basing. */
    void written(org.tebaldi.core.storage.VersionChain chain) {
        if (chain.markWritten()) {
            written.add(chain);
        }
    }

    /**
     * Partial restart: every version written since the last one is re-based, as if a virtual recovery transaction
     * beneath the root wrote it (dissertation §4.5.4, §5.5.1).
     */
    void rebaseWritten() {
        for (org.tebaldi.core.storage.VersionChain chain : written) {
            chain.rebaseAll();
        }
        written.clear();
    }

    /** Recovery dropped the store: nothing to re-base. */
    void forgetWritten() {
        written.clear();
    }

    /** Registers the handlers of the reconfiguration messages of {@code ds}. */
    void register(DataServer ds, org.tebaldi.server.node.Handlers handlers) {
        handlers.on(Reconfig.Drained.class, (from, d) -> {
            drained.merge(d.epoch(), 1, Integer::sum);
            proceed(ds);
        }).on(Reconfig.Prepare.class, (from, p) -> {
            pendingPrepare = p;
            server = from;
            proceed(ds);
        }).on(Reconfig.Retire.class, (from, r) -> {
            pendingRetire = r;
            server = from;
            proceed(ds);
        }).on(Reconfig.UpdatePrepare.class, (from, u) -> {
            ds.updateCc(u.tree());
            ds.sendMessage(from, new Reconfig.PrepareDone(u.epoch()));
        });
    }

    /** The prepare's markers all arrived, but transactions held here still wait for their outcome. */
    boolean waitingForOutcomes() {
        return prepareDrained;
    }

    /**
     * Goes on with a pending request whose markers all arrived. A prepare also waits until every transaction held
     * here learnt its outcome: one whose commit was lost with a dropped connection before the marker was sent
     * would otherwise be dropped by the rebuild although its coordinator committed it (burn seed 5756).
     */
    void proceed(DataServer ds) {
        if (pendingPrepare != null && (prepareDrained || allDrained(ds, pendingPrepare.epoch()))) {
            if (!prepareDrained && ds.outcomesPending()) {
                prepareDrained = true;
                ds.askOutcomesNow();
            }
            if (!ds.outcomesPending()) {
                prepareDrained = false;
                Reconfig.Prepare p = pendingPrepare;
                pendingPrepare = null;
                ds.restartCc(p.tree());
                ds.sendMessage(server, new Reconfig.PrepareDone(p.epoch()));
            }
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
