package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.server.epoch.EpochMessages;
import org.tebaldi.server.epoch.EpochService;
import org.tebaldi.server.msg.CommitRequest;

/**
 * A coordinator's side of epoch-based commit (COCO, Lu et al. VLDB 2021, §3; {@code cluster.commit: epoch}). A
 * transaction whose commit was decided (every participant voted yes, the TC parts validated it) is not committed at
 * once: it is <em>held</em> — prepared at its participants, its locks and prepared writes kept there — in the open
 * batch. The epoch coordinator's {@link EpochMessages.Prepare} closes the open batch into the epoch's batch (every
 * member is prepared, so the answer is immediate) and hands every data server its share of the batch's commit
 * requests ({@link EpochMessages.Members}: should this coordinator die before the decision reaches it, the servers
 * apply the decision to its members themselves); from then on only the epoch's {@link EpochMessages.Decision} ends
 * its members: commit releases each (commit messages, outcome to the client), abort aborts each retryably.
 * Local causes (timeouts, a failed service or data server) still abort transactions of the open batch, never those
 * of a prepared epoch. When a newer term of the epoch service speaks, prepared batches of older terms abort (the
 * old instance is gone and its decision, if any, did not reach this coordinator). Coordinator thread only.
 */
final class TcEpochs implements TcFeature {
    private final TransactionCoordinator tc;
    private List<TcTxnImpl> open = new ArrayList<>();
    /** Prepared batches by epoch id, and when their prepare arrived (µs). */
    private final TreeMap<Long, Batch> prepared = new TreeMap<>();
    /** The newest epoch id seen (a decision at or below it for an epoch not prepared here was applied already). */
    private long newest;
    private volatile long committedEpochs;
    private volatile long abortedEpochs;
    private volatile long epochLatencySum;
    private volatile long released;
    private volatile long heldSum;

    /** With a recorded history (verification runs): the decision applied per epoch id, for the partial-epoch check. */
    private final Map<Long, Boolean> applied;
    /** With a recorded history: the transaction ids of each epoch's batch here, as prepared. */
    private final Map<Long, long[]> members;

    private record Batch(List<TcTxnImpl> txns, long preparedAt) {
    }

    TcEpochs(TransactionCoordinator tc, boolean record) {
        this.tc = tc;
        this.applied = record ? new TreeMap<>() : null;
        this.members = record ? new TreeMap<>() : null;
    }

    @Override
    public void register(org.tebaldi.server.node.Handlers handlers) {
        handlers.on(EpochMessages.Prepare.class, this::onPrepare).on(EpochMessages.Decision.class, this::onDecision);
    }

    /** A decided transaction is held until its epoch commits ({@link #hold}); its epoch's decision commits it. */
    @Override
    public void afterDecide(TcTxnImpl t, Runnable commit) {
        hold(t);
    }

    @Override
    public void counters(Map<String, Long> out) {
        out.merge("epoch.committed", committedEpochs, Long::sum);
        out.merge("epoch.aborted", abortedEpochs, Long::sum);
    }

    /** Holds a decided transaction in the open batch until its epoch commits. */
    void hold(TcTxnImpl t) {
        if (t.status == TcTxnImpl.Status.DONE) {
            return;
        }
        t.status = TcTxnImpl.Status.HELD;
        t.heldAt = tc.nowMicros();
        open.add(t);
    }

    /**
     * The epoch ended: the open batch becomes its batch, prepared (every member voted yes); every data server gets
     * the batch's commit requests for it ({@link EpochMessages.Members}), then the service the answer, at once.
     */
    void onPrepare(NodeId from, EpochMessages.Prepare p) {
        newTerm(p.epoch());
        if (p.epoch() > newest) {
            newest = p.epoch();
            List<TcTxnImpl> batch = closeOpen(p.epoch());
            prepared.put(p.epoch(), new Batch(batch, tc.nowMicros()));
            if (members != null) {
                members.put(p.epoch(), batch.stream().mapToLong(TcTxnImpl::id).toArray());
            }
            sendMembers(p.epoch(), batch);
        }
        tc.sendMessage(from, new EpochMessages.Prepared(p.epoch(), prepared.containsKey(p.epoch())));
    }

    /** The epoch's outcome: release or abort every member, then acknowledge. */
    void onDecision(NodeId from, EpochMessages.Decision d) {
        newTerm(d.epoch());
        Batch b = prepared.remove(d.epoch());
        if (b == null && d.epoch() > newest) {
            // its prepare never arrived (lost): the epoch aborted, and so does what it would have held
            newest = d.epoch();
            // (the service commits only with every coordinator's vote, so this decision is an abort)
            apply(d.epoch(), new Batch(closeOpen(d.epoch()), tc.nowMicros()), false);
        } else if (b != null) {
            apply(d.epoch(), b, d.commit());
        }
        tc.sendMessage(from, new EpochMessages.Done(d.epoch()));
    }

    /**
     * Each data server's share of the batch: the commit request every participant would get at release (the TC
     * parts' commit metadata is fixed once they validated). Sent to every data server, empty shares too: a server
     * answers the prepare only once it heard from every coordinator the prepare went to.
     */
    private void sendMembers(long epoch, List<TcTxnImpl> batch) {
        int servers = tc.config().dataServers();
        List<List<CommitRequest>> share = new ArrayList<>(servers);
        for (int i = 0; i < servers; i++) {
            share.add(new ArrayList<>());
        }
        for (TcTxnImpl t : batch) {
            CommitRequest r = new CommitRequest(t.id(), tc.module().commitMeta(t), t.epoch);
            for (int ds : t.participants()) {
                share.get(ds).add(r);
            }
        }
        for (int i = 0; i < servers; i++) {
            tc.sendMessage(NodeId.ds(i), new EpochMessages.Members(epoch, share.get(i).toArray(new CommitRequest[0])));
        }
    }

    private List<TcTxnImpl> closeOpen(long epoch) {
        List<TcTxnImpl> batch = new ArrayList<>(open.size());
        for (TcTxnImpl t : open) {
            if (t.status == TcTxnImpl.Status.HELD) {
                t.heldEpoch = epoch;
                batch.add(t);
            }
        }
        open = new ArrayList<>();
        return batch;
    }

    private void apply(long epoch, Batch b, boolean commit) {
        long now = tc.nowMicros();
        if (applied != null) {
            applied.put(epoch, commit);
        }
        if (commit) {
            committedEpochs++;
            epochLatencySum += now - b.preparedAt;
            for (TcTxnImpl t : b.txns) {
                if (t.status == TcTxnImpl.Status.HELD) {
                    released++;
                    heldSum += now - t.heldAt;
                    tc.commits().commit(t);
                }
            }
        } else {
            abortedEpochs++;
            AbortReason why = new AbortReason("epoch " + (epoch & 0xffff_ffffL) + " of term "
                    + EpochService.termOf(epoch) + " aborted (a node failed or could not prepare)", true);
            for (TcTxnImpl t : b.txns) {
                tc.commits().abortHeld(t, why);
            }
        }
    }

    /** A message of a newer term: prepared batches of older terms abort (their service instance is gone). */
    private void newTerm(long epoch) {
        long term = EpochService.termOf(epoch);
        Iterator<Map.Entry<Long, Batch>> it = prepared.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Batch> e = it.next();
            if (EpochService.termOf(e.getKey()) < term) {
                it.remove();
                apply(e.getKey(), e.getValue(), false);
            }
        }
    }

    /** The decision applied per epoch id (empty unless the history is recorded). */
    Map<Long, Boolean> applied() {
        return applied == null ? Map.of() : java.util.Collections.unmodifiableMap(applied);
    }

    /** The transaction ids of each epoch's batch as prepared here (empty unless the history is recorded). */
    Map<Long, long[]> members() {
        return members == null ? Map.of() : java.util.Collections.unmodifiableMap(members);
    }

    /**
     * {committed epochs, aborted epochs, mean epoch commit latency µs (prepare to commit decision), mean time a
     * transaction was held µs (decision to release)}.
     */
    double[] stats() {
        return new double[] {committedEpochs(), abortedEpochs(), meanEpochCommitMicros(), meanHeldMicros()};
    }

    /** Epochs whose commit this coordinator applied. */
    long committedEpochs() {
        return committedEpochs;
    }

    /** Epochs whose abort this coordinator applied. */
    long abortedEpochs() {
        return abortedEpochs;
    }

    /** Mean time from an epoch's prepare to its commit decision as seen here, µs (0 if none). */
    double meanEpochCommitMicros() {
        long n = committedEpochs;
        return n == 0 ? 0 : (double) epochLatencySum / n;
    }

    /** Mean time a released transaction was held (decision to release), µs (0 if none). */
    double meanHeldMicros() {
        long n = released;
        return n == 0 ? 0 : (double) heldSum / n;
    }
}
