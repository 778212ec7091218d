package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.server.msg.BeginTxn;
import org.tebaldi.server.msg.CallProc;
import org.tebaldi.server.msg.Durable;
import org.tebaldi.server.msg.Recovery;
import org.tebaldi.server.msg.TxnEnded;

/**
 * A coordinator's side of durability (dissertation §4.5.4). It knows every data server's last persisted GCP epoch
 * (their {@link Durable.Persisted} reports); the cluster's cut is the smallest. A committed transaction whose global
 * epoch id is at most the cut is durable: its client gets the durable notification ({@link Durable.Txns}, batched
 * per client) — or, in synchronous mode, only then the commit notification. During a recovery round it aborts its
 * running transactions and holds new ones; when the round ends, transactions above the recovery's cut are lost and
 * their clients told so (their recorded outcome becomes an abort). Coordinator 0 also runs the rounds
 * ({@link RecoveryCoordinator}). With the transaction timeout on ({@code ClusterConfig#withTxnTimeout}) each durable
 * notice is kept until its client acknowledges it ({@link Durable.Ack}) and sent again every timeout until then: a
 * connection that drops loses what is in flight, and a notice sent once would leave its transactions never durable
 * at the client.
 */
final class TcDurability implements TcFeature {
    private static final Logger LOG = LoggerFactory.getLogger(TcDurability.class);

    private record Pending(NodeId client, long txnId, TxnEnded held) {
    }

    /** A durable notice sent and not acknowledged yet, and when it was last sent (µs of this node's clock). */
    private static final class Unacked {
        final NodeId client;
        final Durable.Txns notice;
        long sentAt;

        Unacked(NodeId client, Durable.Txns notice, long sentAt) {
            this.client = client;
            this.notice = notice;
            this.sentAt = sentAt;
        }
    }

    private final TransactionCoordinator tc;
    private final boolean sync;
    private final long[] persistedBy;
    private long cut;
    private long round;
    private boolean recovering;
    private final TreeMap<Long, List<Pending>> pending = new TreeMap<>();
    private final List<Object[]> held = new ArrayList<>();
    private final RecoveryCoordinator coordinator;
    private final Map<Long, Long> epochs;
    /** Notices awaiting their acknowledgement, by number (transaction timeout on only). */
    private final LinkedHashMap<Long, Unacked> unacked = new LinkedHashMap<>();
    private long noticeSeq;

    /** @param keepEpochs remember every committed transaction's global epoch id (for verification) */
    TcDurability(TransactionCoordinator tc, int dataServers, boolean sync, boolean keepEpochs) {
        this.tc = tc;
        this.epochs = keepEpochs ? new HashMap<>() : null;
        this.sync = sync;
        this.persistedBy = new long[dataServers];
        this.coordinator = tc.tcIndex() == 0 ? new RecoveryCoordinator(tc, dataServers) : null;
    }

    /** Handles durability and recovery messages, and holds new transactions during recovery; true if consumed. */
    @Override
    public boolean intercept(NodeId from, Object msg) {
        if (msg instanceof Durable.Persisted p) {
            persisted(p);
            return true;
        }
        if (msg instanceof Durable.Ack a) {
            unacked.remove(a.seq());
            return true;
        }
        if (msg instanceof Recovery.Begin b) {
            if (b.round() > round) {
                begin(b.round()); // a Begin of a round whose End was applied here already is stale
            }
            tc.sendMessage(from, new Recovery.BeginAck(b.round(), tc.tcIndex())); // a repeated begin: the ack was lost
            return true;
        }
        if (msg instanceof Recovery.End e) {
            if (e.round() > round) {
                end(e);
            }
            tc.sendMessage(from, new Recovery.EndAck(e.round(), tc.tcIndex())); // a repeated end: the ack was lost
            return true;
        }
        if (coordinator != null && coordinator.intercept(from, msg)) {
            return true;
        }
        if (recovering && (msg instanceof BeginTxn || msg instanceof CallProc)) {
            held.add(new Object[]{from, msg});
            return true;
        }
        return false;
    }

    /** A failed client endpoint's notices are no longer awaited. */
    @Override
    public void nodeDown(NodeDown d) {
        if (d.node().role() == Role.CLIENT) {
            unacked.values().removeIf(u -> u.client.equals(d.node()));
        }
    }

    /** The commit's answer to the client goes through {@link #committed} (it may wait until durable). */
    @Override
    public void answerCommit(TcTxnImpl t, TxnEnded ended, java.util.function.Consumer<TxnEnded> next) {
        committed(t.client, t.id(), t.epoch, ended);
    }

    @Override
    public void sweep(long nowMicros) {
        if (tc.config().txnTimeoutMicros() > 0) {
            resendUnacknowledged(nowMicros);
        }
    }

    @Override
    public boolean durable() {
        return true;
    }

    /**
     * Transaction {@code txnId} committed with global epoch {@code g}: sends the commit notification now (with the
     * durable notification if already durable), or holds it (synchronous mode) until durable.
     */
    void committed(NodeId client, long txnId, long g, TxnEnded ended) {
        if (epochs != null) {
            epochs.put(txnId, g);
        }
        if (g <= cut && !recovering) {
            tc.sendMessage(client, ended);
            return;
        }
        if (sync) {
            pending.computeIfAbsent(g, x -> new ArrayList<>()).add(new Pending(client, txnId, ended));
        } else {
            tc.sendMessage(client, new TxnEnded(ended.reqId(), ended.txnId(), true, null, true, ended.outputs(),
                    false));
            pending.computeIfAbsent(g, x -> new ArrayList<>()).add(new Pending(client, txnId, null));
        }
    }

    private void persisted(Durable.Persisted p) {
        if (p.round() != round || recovering || p.ds() >= persistedBy.length) {
            return;
        }
        tc.failures().revive(p.ds());
        persistedBy[p.ds()] = Math.max(persistedBy[p.ds()], p.epoch());
        long c = Long.MAX_VALUE;
        for (long e : persistedBy) {
            c = Math.min(c, e);
        }
        if (c > cut) {
            cut = c;
            release(cut, false, null);
        }
    }

    /** Notifies the clients of every pending transaction with global epoch up to {@code upTo}. */
    private void release(long upTo, boolean lost, String reason) {
        Map<NodeId, List<Long>> byClient = new HashMap<>();
        var head = upTo == Long.MAX_VALUE ? pending : pending.headMap(upTo, true);
        for (List<Pending> l : head.values()) {
            org.tebaldi.core.runtime.cost.HandlerUnits.add(l.size()); // this handler's work (docs/simulation.md)
            for (Pending p : l) {
                if (p.held() != null) {
                    tc.sendMessage(p.client(), lost ? new TxnEnded(p.held().reqId(), p.txnId(), false, reason, true,
                            Map.of()) : p.held());
                } else {
                    byClient.computeIfAbsent(p.client(), x -> new ArrayList<>()).add(p.txnId());
                }
            }
        }
        head.clear();
        byClient.forEach((client, ids) -> notice(client, ids.stream().mapToLong(Long::longValue).toArray(), lost,
                reason));
    }

    /** Sends a durable notice, kept until acknowledged when the transaction timeout is on. */
    private void notice(NodeId client, long[] txnIds, boolean lost, String reason) {
        if (tc.config().txnTimeoutMicros() <= 0) {
            tc.sendMessage(client, new Durable.Txns(0, txnIds, lost, reason));
            return;
        }
        Durable.Txns n = new Durable.Txns(++noticeSeq, txnIds, lost, reason);
        unacked.put(n.seq(), new Unacked(client, n, tc.nowMicros()));
        tc.sendMessage(client, n);
    }

    /**
     * Sends again every durable notice unacknowledged for a transaction timeout (the notice or its acknowledgement
     * was lost with a dropped connection). Called by the coordinator's periodic sweep.
     */
    void resendUnacknowledged(long nowMicros) {
        long timeout = tc.config().txnTimeoutMicros();
        for (Unacked u : unacked.values()) {
            if (nowMicros - u.sentAt >= timeout) {
                u.sentAt = nowMicros;
                tc.sendMessage(u.client, u.notice);
            }
        }
    }

    private void begin(long r) {
        if (!recovering) {
            LOG.warn("tc{}: recovery round {} began: aborting running transactions, holding new ones", tc.tcIndex(),
                    r);
        }
        recovering = true;
        tc.commits().abortAll("the cluster is recovering from a data server failure");
        tc.module().storageRecovered();
    }

    private void end(Recovery.End e) {
        Set<Long> lost = new HashSet<>();
        for (Map.Entry<Long, List<Pending>> en : pending.tailMap(e.persisted(), false).entrySet()) {
            en.getValue().forEach(p -> lost.add(p.txnId()));
        }
        release(e.persisted(), false, null);
        release(Long.MAX_VALUE, true, "lost: the cluster recovered to GCP epoch " + e.persisted() + " after a data"
                + " server failure, and this transaction's epoch was not yet on disk everywhere");
        if (!lost.isEmpty()) {
            tc.recorder().retract(lost);
            LOG.warn("tc{}: {} committed transaction(s) not yet durable were lost in recovery round {}", tc.tcIndex(),
                    lost.size(), e.round());
        }
        Arrays.fill(persistedBy, e.epochBase() - 1);
        cut = e.epochBase() - 1;
        round = e.round();
        recovering = false;
        tc.failures().reviveAll();
        List<Object[]> h = new ArrayList<>(held);
        held.clear();
        for (Object[] q : h) {
            tc.replay((NodeId) q[0], q[1]);
        }
        LOG.info("tc{}: recovery round {} ended: cut at epoch {}, {} lost", tc.tcIndex(), e.round(), e.persisted(),
                lost.size());
    }

    /** The global epoch id a committed transaction got here, or -1 (only when kept). */
    long epochOf(long txnId) {
        return epochs == null ? -1 : epochs.getOrDefault(txnId, -1L);
    }

    /** Whether a recovery round is running. */
    @Override
    public boolean recovering() {
        return recovering;
    }
}
