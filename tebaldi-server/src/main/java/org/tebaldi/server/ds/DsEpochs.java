package org.tebaldi.server.ds;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.epoch.EpochMessages;
import org.tebaldi.server.epoch.EpochService;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.core.txn.TxnIds;

/**
 * A data server's side of epoch-based commit (COCO, Lu et al. VLDB 2021, §3; {@code cluster.commit: epoch}). Every
 * coordinator the epoch's {@link EpochMessages.Prepare} went to hands this server its share of the epoch's batch
 * ({@link EpochMessages.Members}: the commit requests of the members that wrote or read here); the server answers the
 * prepare only once it holds every such share, and answers no if one of those coordinators failed before its share
 * arrived. So a committed epoch's members are known here before the epoch can commit, and the decision
 * ({@link EpochMessages.Decision}, sent to data servers too) is applied here to the members of a coordinator that
 * died after its vote: its commit requests are applied as the coordinator would have sent them, or its members
 * aborted. A coordinator that fails later still, after the decision reached this server but before its commit
 * requests did, leaves its committed members here; they are committed at its failure notice. Without this, a
 * coordinator's crash between its vote and the decision split a committed epoch (docs/mechanisms.md,
 * "Epoch-based commit"). Data server thread only.
 */
final class DsEpochs implements DsFeature {
    private final DataServer ds;
    /** Epochs heard of and not decided here, by id. */
    private final TreeMap<Long, Epoch> epochs = new TreeMap<>();
    /** Members of committed epochs still live here, by transaction id: committed here if their coordinator fails. */
    private final Map<Long, CommitRequest> committed = new HashMap<>();
    /** The newest epoch whose decision arrived (a later share for an epoch at or below it that is unknown here is
     * of an epoch decided without this server's yes: an abort, nothing to keep). */
    private long newestDecided;

    private static final class Epoch {
        final BitSet shares = new BitSet();
        final List<CommitRequest> commits = new ArrayList<>();
        /** The service that sent the prepare (null until it arrived), and the coordinators it went to. */
        NodeId service;
        int[] coordinators;
        boolean answered;
    }

    private final DsEpochPrepare readiness;

    DsEpochs(DataServer ds) {
        this.ds = ds;
        this.readiness = new DsEpochPrepare(ds);
    }

    /**
     * Its prepared-write records are kept until the coordinators' commit or abort messages, so an epoch is prepared
     * here once every coordinator's share of it arrived and every feature is ready ({@link DsEpochPrepare}), unless
     * this server is recovering from its log.
     */
    @Override
    public void register(org.tebaldi.server.node.Handlers handlers) {
        handlers.on(EpochMessages.Prepare.class, this::onPrepare)
                .on(EpochMessages.Members.class, this::onMembers)
                .on(EpochMessages.Decision.class, this::onDecision);
    }

    @Override
    public void counters(Map<String, Long> out) {
        out.merge("epoch.undecided", (long) epochs.size(), Long::sum);
    }

    void onPrepare(NodeId from, EpochMessages.Prepare p) {
        olderTermsEnd(p.epoch());
        Epoch e = epoch(p.epoch());
        if (e == null) {
            ds.send(from, new EpochMessages.Prepared(p.epoch(), false));
            return;
        }
        e.service = from;
        e.coordinators = p.coordinators();
        tryAnswer(p.epoch(), e);
    }

    void onMembers(NodeId from, EpochMessages.Members m) {
        if (ds.termination().coordinatorDead(from.index())) {
            return; // late: this server answers that epoch no (tryAnswer), so it cannot commit
        }
        Epoch e = epoch(m.epoch());
        if (e == null) {
            return;
        }
        if (!e.shares.get(from.index())) {
            e.shares.set(from.index());
            e.commits.addAll(List.of(m.commits()));
        }
        tryAnswer(m.epoch(), e);
    }

    /** The entry of a live epoch, or null if it was decided already (or is of an older term that ended). */
    private Epoch epoch(long id) {
        Epoch e = epochs.get(id);
        if (e == null && id > newestDecided) {
            e = new Epoch();
            epochs.put(id, e);
        }
        return e;
    }

    private void tryAnswer(long id, Epoch e) {
        if (e.service == null || e.answered) {
            return;
        }
        for (int c : e.coordinators) {
            if (!e.shares.get(c)) {
                if (!ds.termination().coordinatorDead(c)) {
                    return;
                }
                answer(id, e, false); // its batch is unknown here: the epoch must not commit
                return;
            }
        }
        e.answered = true;
        readiness.whenReady(id, () -> ds.send(e.service, new EpochMessages.Prepared(id, !ds.recovering())));
    }

    private void answer(long id, Epoch e, boolean ok) {
        e.answered = true;
        ds.send(e.service, new EpochMessages.Prepared(id, ok));
    }

    /** The epoch's outcome: applied to the members of failed coordinators; kept for the others until they end. */
    void onDecision(NodeId from, EpochMessages.Decision d) {
        newestDecided = Math.max(newestDecided, d.epoch());
        Epoch e = epochs.remove(d.epoch());
        if (e != null) {
            for (CommitRequest r : e.commits) {
                if (ds.termination().coordinatorDead(TxnIds.coordinator(r.txnId()))) {
                    settle(r, d.commit());
                } else if (d.commit()) {
                    committed.put(r.txnId(), r);
                }
            }
        }
        committed.values().removeIf(r -> ds.txns().get(r.txnId()) == null);
        ds.send(from, new EpochMessages.Done(d.epoch()));
    }

    /**
     * Coordinator {@code tc} failed (called before its transactions here are aborted): its members of committed
     * epochs commit now; its members of undecided epochs this server has a share of wait for the decision; a
     * prepare that waits for its share is answered no.
     *
     * @return whether transaction {@code id}'s fate is this class's (it must not be aborted at the failure)
     */
    @Override
    public java.util.function.LongPredicate coordinatorFailed(int tc) {
        List<CommitRequest> now = new ArrayList<>();
        for (Iterator<CommitRequest> it = committed.values().iterator(); it.hasNext(); ) {
            CommitRequest r = it.next();
            if (TxnIds.coordinator(r.txnId()) == tc) {
                it.remove();
                now.add(r);
            }
        }
        now.forEach(r -> settle(r, true));
        java.util.Set<Long> waiting = new java.util.HashSet<>();
        for (Map.Entry<Long, Epoch> x : new ArrayList<>(epochs.entrySet())) {
            for (CommitRequest r : x.getValue().commits) {
                if (TxnIds.coordinator(r.txnId()) == tc) {
                    waiting.add(r.txnId());
                }
            }
            tryAnswer(x.getKey(), x.getValue());
        }
        return waiting::contains;
    }

    /**
     * A message of a newer term of the service: undecided epochs of older terms end (their instance is gone; the
     * coordinators abort their prepared batches of those terms when the new term speaks to them), and so do their
     * failed coordinators' members here. An epoch the old instance decided commit is not among them: its commit
     * record makes the new term send that decision before anything else (docs/mechanisms.md, "Durable commit
     * records"), so it arrived here first.
     */
    private void olderTermsEnd(long epoch) {
        long term = EpochService.termOf(epoch);
        for (Iterator<Map.Entry<Long, Epoch>> it = epochs.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Epoch> x = it.next();
            if (EpochService.termOf(x.getKey()) >= term) {
                break;
            }
            it.remove();
            newestDecided = Math.max(newestDecided, x.getKey());
            for (CommitRequest r : x.getValue().commits) {
                if (ds.termination().coordinatorDead(TxnIds.coordinator(r.txnId()))) {
                    settle(r, false);
                }
            }
        }
    }

    /** Ends a failed coordinator's member here as its epoch decided (a no-op if it ended already). */
    private void settle(CommitRequest r, boolean commit) {
        DsTxnImpl t = ds.txns().get(r.txnId());
        if (t == null || t.finished()) {
            return;
        }
        if (commit) {
            ds.phases().onCommit(r);
        } else {
            ds.termination().abortOfFailedCoordinator(t, "its epoch aborted after coordinator tc"
                    + TxnIds.coordinator(r.txnId()) + " failed");
        }
    }

    /** Epochs with a share or prepare here and no decision yet (for tests and memory checks). */
    int undecided() {
        return epochs.size();
    }
}
