package org.tebaldi.server.ds;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.OutcomeQuery;
import org.tebaldi.server.node.ClusterConfig;

/**
 * A data server's side of coordinator failures and lost decisions (docs/architecture.md, "Failures"): the
 * termination protocol of two-phase commit — a transaction held here that nothing was heard about for the
 * transaction timeout asks its coordinator for its outcome ({@link OutcomeQuery}; {@link ClusterConfig#withTxnTimeout})
 * — and the coordinators known to have failed, whose transactions here abort at once (or, under epoch-based commit,
 * follow their epoch's decision, {@link DsEpochs}) and whose later requests are ignored. Data-server thread only.
 */
final class DsTermination implements DsFeature {
    private static final Logger LOG = LoggerFactory.getLogger(DsTermination.class);

    private final DataServer ds;
    /** The server's live transactions by id (the server's own table). */
    private final Long2ObjectOpenHashMap<DsTxnImpl> txns;
    private final BitSet deadTcs = new BitSet();

    DsTermination(DataServer ds) {
        this.ds = ds;
        this.txns = ds.txns().map();
    }

    /** The server started: with a transaction timeout, the periodic questions begin (every quarter timeout). */
    @Override
    public void start() {
        long timeout = ds.config().txnTimeoutMicros();
        if (timeout > 0) {
            ds.schedule(timeout / 4, this::askOutcomes);
        }
    }

    /**
     * For every transaction held here that nothing was heard about for the transaction timeout — a prepared one
     * whose commit or abort was lost, an aborted-here one whose coordinator's abort was lost, a live one whose
     * coordinator moved on — asks its coordinator what became of it; the answer is an ordinary commit or abort
     * request. Asks again after another timeout if no answer came. Not while recovering.
     */
    private void askOutcomes() {
        long timeout = ds.config().txnTimeoutMicros();
        if (!ds.recovering()) {
            long now = ds.nowMicros();
            for (DsTxnImpl t : txns.values()) {
                int tc = TxnIds.coordinator(t.id());
                if (now - t.heardAt > timeout && !deadTcs.get(tc)) {
                    t.heardAt = now;
                    t.askedAt = now;
                    ds.send(NodeId.tc(tc), new OutcomeQuery(t.id()));
                }
            }
            ds.reconfig().askOverdueMarkers(now, timeout);
        }
        ds.schedule(Math.max(1_000, timeout / 4), this::askOutcomes);
    }

    /** Whether coordinator {@code tc} is known to have failed (its {@code NodeDown} arrived). */
    boolean coordinatorDead(int tc) {
        return deadTcs.get(tc);
    }

    /** Recovery finished: every coordinator is a member again (a recovery round restarts the cluster's nodes). */
    void forgetDead() {
        deadTcs.clear();
    }

    /**
     * Partial restart, once every coordinator drained: whether transactions held here must still learn their
     * outcome before the CC module is rebuilt. A drained marker follows the coordinator's last commit or abort on
     * the link, but that commit may have been lost with a dropped connection (docs/architecture.md, "Failures"):
     * the coordinator still holds the decision, and the transaction asks for it ({@link OutcomeQuery}). Only with a
     * transaction timeout (without one nothing is lost and the coordinator keeps no decisions) and not for a
     * transaction of a failed coordinator. {@code leaves} selects the transactions by leaf (an online update's
     * retire asks for the retired subtree's).
     */
    boolean outcomesPending(IntPredicate leaves) {
        if (txns.isEmpty() || ds.config().txnTimeoutMicros() <= 0) {
            return false;
        }
        for (DsTxnImpl t : txns.values()) {
            if (leaves.test(t.leaf()) && !deadTcs.get(TxnIds.coordinator(t.id()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Asks now for the outcome of every transaction of a leaf in {@code leaves} held here, unless nothing was heard
     * of it since the last question (its answer is on the way; if lost, the timeout asks again, as usual).
     */
    void askOutcomesNow(IntPredicate leaves) {
        long now = ds.nowMicros();
        int asked = 0;
        for (DsTxnImpl t : txns.values()) {
            int tc = TxnIds.coordinator(t.id());
            if (leaves.test(t.leaf()) && !deadTcs.get(tc) && t.askedAt != t.heardAt) {
                t.heardAt = now;
                t.askedAt = now;
                asked++;
                ds.send(NodeId.tc(tc), new OutcomeQuery(t.id()));
            }
        }
        LOG.info("ds{}: the reconfiguration waits for the outcome of {} transaction(s)", ds.dsIndex(), asked);
    }

    /**
     * A coordinator failed (its {@code NodeDown}; other nodes' failures are other features'): its transactions here can never finish normally, so they abort
     * now, releasing their locks, versions and waits (the DS-side timeout for a dead TC), and the abort is recorded
     * in the history — the coordinator's own record is lost with it. Requests that still arrive from it are
     * ignored. A transaction that had voted yes and whose commit reached another server but not this one is the
     * window two-phase commit without a recovery log cannot close (docs/cluster.md, "Failures"); under epoch-based
     * commit the members of its prepared epochs are not aborted here but follow their epoch's decision ({@link
     * DsEpochs#coordinatorFailed}, told after the coordinator is marked dead: a prepare waiting for its share is
     * then answered no).
     *
     * <p>Other features may claim a failed coordinator's transactions at their "coordinator failed" point
     * ({@link DsFeature#coordinatorFailed}).
     */
    @Override
    public void nodeDown(org.tebaldi.core.runtime.NodeDown d) {
        if (d.node().role() != org.tebaldi.core.runtime.Role.TC) {
            return;
        }
        NodeId tcNode = d.node();
        String reason = d.reason();
        int tc = tcNode.index();
        deadTcs.set(tc);
        LongPredicate claimed = id -> false;
        for (DsFeature f : ds.features().list()) {
            claimed = claimed.or(f.coordinatorFailed(tc));
        }
        List<DsTxnImpl> doomed = new ArrayList<>();
        for (DsTxnImpl t : txns.values()) {
            if (TxnIds.coordinator(t.id()) == tc && !claimed.test(t.id())) {
                doomed.add(t);
            }
        }
        for (DsTxnImpl t : doomed) {
            abortOfFailedCoordinator(t, "coordinator " + tcNode + " failed (" + reason + ")");
        }
        if (!doomed.isEmpty()) {
            LOG.warn("ds{}: aborted {} transaction(s) of failed coordinator {}", ds.dsIndex(), doomed.size(), tcNode);
        }
    }

    /** Aborts {@code t} of a failed coordinator here, and records the abort (the coordinator's record died with it). */
    void abortOfFailedCoordinator(DsTxnImpl t, String why) {
        txns.remove(t.id());
        if (!t.finished()) {
            ds.phases().localAbort(t, AbortReason.error(why));
            ds.recorder().outcome(t, false, ds.database().type(t.typeId()).name());
        }
    }
}
