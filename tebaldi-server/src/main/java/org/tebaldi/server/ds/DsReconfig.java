package org.tebaldi.server.ds;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.msg.Reconfig;
import org.tebaldi.server.node.Handlers;

/**
 * A data server's side of both reconfiguration protocols. Partial restart (dissertation §5.5.1): the prepare
 * request waits until every coordinator's {@link Reconfig.Drained} marker arrived — each travels behind that
 * coordinator's last commit or abort on the FIFO link — then rebuilds the CC module. Online update (§5.5.2): the
 * merged tree is installed at once (its old subtree keeps running for transactions already in it); the retire
 * request waits for every coordinator's marker in the same way, then drops the old subtree's CC parts. A marker
 * lost with a dropped connection (docs/architecture.md, "Failures") is asked for again: with the transaction timeout
 * on, a request still missing markers one timeout after it arrived sends {@link Reconfig.DrainedQuery} to each
 * coordinator whose marker is missing, and again after every further timeout. Markers count once per coordinator,
 * so a marker sent again, or one held back by the dropped connection and delivered late, is harmless. The server's
 * requests are idempotent per epoch (it sends one again when the answer is overdue): a step already taken is
 * answered again, one under way answers by itself.
 */
final class DsReconfig implements DsFeature {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DsReconfig.class);
    private final DataServer ds;
    /** Per epoch: the coordinators whose marker arrived. */
    private final Map<Long, BitSet> drained = new HashMap<>();
    /** The last epoch prepared (partial restart), update-prepared and retired here (-1: none). */
    private long preparedEpoch = -1;
    private long updatedEpoch = -1;
    private long retiredEpoch = -1;
    /** When the request now waiting for markers arrived, or last asked for them, µs (local clock). */
    private long waitingSince;
    private Reconfig.Prepare pendingPrepare;
    /** Every marker of {@link #pendingPrepare}'s epoch arrived; waiting for held transactions to learn outcomes. */
    private boolean prepareDrained;
    /** Every marker of {@link #pendingRetire}'s epoch arrived; waiting for its subtree's held transactions. */
    private boolean retireDrained;
    private Reconfig.Retire pendingRetire;
    private NodeId server;

    DsReconfig(DataServer ds) {
        this.ds = ds;
    }

    /** Registers the handlers of the reconfiguration messages. */
    @Override
    public void register(Handlers handlers) {
        handlers.on(Reconfig.Drained.class, (from, d) -> {
            drained.computeIfAbsent(d.epoch(), e -> new BitSet()).set(from.index());
            proceed();
        }).on(Reconfig.Prepare.class, (from, p) -> {
            server = from;
            if (p.epoch() <= preparedEpoch) {
                ds.send(from, new Reconfig.PrepareDone(p.epoch()));
            } else if (pendingPrepare == null || pendingPrepare.epoch() != p.epoch()) {
                pendingPrepare = p;
                waitingSince = ds.nowMicros();
                proceed();
            }
        }).on(Reconfig.Retire.class, (from, r) -> {
            server = from;
            if (r.epoch() <= retiredEpoch) {
                ds.send(from, new Reconfig.Retired(r.epoch()));
            } else if (pendingRetire == null || pendingRetire.epoch() != r.epoch()) {
                pendingRetire = r;
                waitingSince = ds.nowMicros();
                proceed();
            }
        }).on(Reconfig.UpdatePrepare.class, (from, u) -> {
            if (u.epoch() > updatedEpoch) {
                updatedEpoch = u.epoch();
                updateCc(u.tree());
            }
            ds.send(from, new Reconfig.PrepareDone(u.epoch()));
        });
    }

    /** After each message: a request whose markers all arrived may go on once held transactions learnt outcomes. */
    @Override
    public void afterMessage() {
        if (prepareDrained || retireDrained) {
            proceed();
        }
    }

    /**
     * Goes on with a pending request whose markers all arrived. It also waits until every transaction held here
     * that the request would cut off learnt its outcome — for a prepare every transaction, for a retire those of
     * the retired subtree: one whose commit was lost with a dropped connection before the marker was sent would
     * otherwise be dropped by the rebuild (or lose its CC parts) although its coordinator committed it (burn seed
     * 5756).
     */
    private void proceed() {
        if (pendingPrepare != null && (prepareDrained || allDrained(pendingPrepare.epoch()))) {
            IntPredicate all = leaf -> true;
            if (!prepareDrained && ds.termination().outcomesPending(all)) {
                prepareDrained = true;
                ds.termination().askOutcomesNow(all);
            }
            if (!ds.termination().outcomesPending(all)) {
                prepareDrained = false;
                Reconfig.Prepare p = pendingPrepare;
                pendingPrepare = null;
                preparedEpoch = p.epoch();
                restartCc(p.tree());
                ds.send(server, new Reconfig.PrepareDone(p.epoch()));
            }
        }
        if (pendingRetire != null && (retireDrained || allDrained(pendingRetire.epoch()))) {
            CcNode old = ds.config().tree().node(pendingRetire.subtree());
            IntPredicate retired = leaf -> old != null && old.contains(leaf);
            if (!retireDrained && ds.termination().outcomesPending(retired)) {
                retireDrained = true;
                ds.termination().askOutcomesNow(retired);
            }
            if (!ds.termination().outcomesPending(retired)) {
                retireDrained = false;
                Reconfig.Retire r = pendingRetire;
                pendingRetire = null;
                retiredEpoch = r.epoch();
                updateCc(r.tree());
                ds.send(server, new Reconfig.Retired(r.epoch()));
            }
        }
    }

    private boolean allDrained(long epoch) {
        BitSet b = drained.get(epoch);
        if (b == null || b.cardinality() < ds.config().coordinators()) {
            return false;
        }
        drained.keySet().removeIf(e -> e <= epoch);
        return true;
    }

    /**
     * Called every quarter of the transaction timeout: a prepare or retire request that has waited for markers
     * longer than {@code timeoutMicros} asks each coordinator whose marker is missing (and that is not known dead)
     * for it again ({@link Reconfig.DrainedQuery}).
     */
    void askOverdueMarkers(long nowMicros, long timeoutMicros) {
        Long epoch = pendingRetire != null && !retireDrained ? Long.valueOf(pendingRetire.epoch())
                : pendingPrepare != null && !prepareDrained ? Long.valueOf(pendingPrepare.epoch()) : null;
        if (epoch == null || nowMicros - waitingSince <= timeoutMicros) {
            return;
        }
        waitingSince = nowMicros;
        BitSet have = drained.getOrDefault(epoch, new BitSet());
        for (int tc = 0; tc < ds.config().coordinators(); tc++) {
            if (!have.get(tc) && !ds.termination().coordinatorDead(tc)) {
                ds.send(NodeId.tc(tc), new Reconfig.DrainedQuery(epoch));
            }
        }
    }

    /**
     * Prepare phase of the partial restart (dissertation §5.5.1), once every coordinator drained: a new CC module
     * for {@code tree}, and the root CC's state rebuilt from the storage module — every committed version re-based
     * as if a virtual recovery transaction beneath the root wrote it (§4.5.4). Only chains written since the last
     * re-basing hold CC metadata (loaded versions have none), so only those are visited.
     */
    private void restartCc(org.tebaldi.core.tree.CcTree tree) {
        if (ds.liveTransactions() > 0) {
            LOG.error("ds{}: {} transactions left when preparing a reconfiguration: {}", ds.dsIndex(),
                    ds.liveTransactions(), ds.describeLive(5));
            ds.txns().map().values().forEach(t -> ds.features().each(f -> f.dropped(t)));
            ds.txns().clear();
        }
        ds.module().install(ds.config().withTree(tree));
        var dropped = ds.gc().reset();
        ds.store().rebaseAll();
        ds.gc().settleDropped(dropped);
    }

    /**
     * Online update (dissertation §5.5.2): switches to a tree derived from the current one with node ids kept.
     * Parts of nodes still present and not retired stay (rebound to their node in the new tree, keeping their
     * locks and waits); new nodes get new parts; retired nodes lose theirs.
     */
    private void updateCc(org.tebaldi.core.tree.CcTree tree) {
        ds.module().update(ds.config().withTree(tree));
        ds.gc().partsChanged();
    }
}
