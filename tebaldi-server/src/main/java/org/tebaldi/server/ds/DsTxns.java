package org.tebaldi.server.ds;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.List;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.TxnHeader;

/**
 * A data server's transaction table (docs/architecture.md, "Nodes and features"): its transactions by id — live
 * ones, and ones aborted here until the coordinator's abort arrives — created at their first request, with the
 * recovery incarnation they belong to and the running count of versions they installed and removed. Data-server
 * thread only, except the counts, which samplers read from other threads.
 */
final class DsTxns {
    private final DataServer ds;
    private final Long2ObjectOpenHashMap<DsTxnImpl> txns = new Long2ObjectOpenHashMap<>();
    /** Recovery rounds that dropped every transaction here so far ({@link #dropAll}). */
    private int incarnation;
    /** Versions installed and removed so far (written by the server's actor, read by samplers on other threads). */
    private volatile long versionsAdded;
    private volatile long versionsRemoved;

    DsTxns(DataServer ds) {
        this.ds = ds;
    }

    /**
     * The transaction of {@code h}, created at its first request here (every DS part makes its state, every feature
     * sees it), with the request's metadata seen by every level; null if its coordinator is dead.
     */
    DsTxnImpl forRequest(TxnHeader h, Object[] meta) {
        long id = h.txnId();
        DsTxnImpl t = txns.get(id);
        if (t == null && ds.termination().coordinatorDead(Math.max(0, TxnIds.coordinator(id)))) {
            return null;
        }
        if (t == null) {
            DsTxnImpl created = new DsTxnImpl(h, ds.config().tree().path(h.leaf()));
            created.gcEpoch = ds.gc().join();
            created.incarnation = incarnation;
            ds.features().each(f -> f.txnCreated(created));
            ds.module().newStates(created);
            txns.put(id, created);
            t = created;
        }
        if (!t.finished()) {
            requestArrived(t, meta);
        }
        return t;
    }

    /** A request with {@code meta} arrived for live {@code t}: the metadata is set and every level sees it. */
    void requestArrived(DsTxnImpl t, Object[] meta) {
        t.heardAt = ds.nowMicros();
        t.setMeta(meta);
        ds.module().onRequest(t);
    }

    /** The transaction with that id here, or null. */
    DsTxnImpl get(long id) {
        return txns.get(id);
    }

    /** The transaction leaves the table (its commit or abort arrived from the coordinator). */
    DsTxnImpl remove(long id) {
        return txns.remove(id);
    }

    /** The table itself (termination and reconfiguration walk it). */
    Long2ObjectOpenHashMap<DsTxnImpl> map() {
        return txns;
    }

    /** Transactions with state here. */
    int size() {
        return txns.size();
    }

    /** How many times a recovery round dropped every transaction here; a transaction of an earlier one is gone. */
    int incarnation() {
        return incarnation;
    }

    /** A reconfiguration's prepare found transactions left over: they go. */
    void clear() {
        txns.clear();
    }

    /**
     * Recovery began: a new incarnation, every transaction goes, and so does every version but the pruned ones
     * (the store is about to be cleared).
     */
    void dropAll(long pruned) {
        incarnation++;
        versionsRemoved = versionsAdded - pruned;
        txns.clear();
    }

    /** A version was installed (a load, a first write of a key, or one rebuilt by recovery). */
    void versionAdded() {
        versionsAdded++;
    }

    /** An aborted transaction removed {@code n} versions. */
    void versionsRemoved(int n) {
        versionsRemoved += n;
    }

    /** Versions held in the store given {@code pruned} pruned by GC (any thread; exact once the node is quiet). */
    long versionCount(long pruned) {
        return versionsAdded - versionsRemoved - pruned;
    }

    /** One line per transaction with state here (at most {@code max}) — for diagnostics. */
    List<String> describe(int max) {
        return txns.values().stream().limit(max).map(t -> t + (t.finished() ? " aborted-here" : " live")
                + (t.doomed != null ? " doomed" : "") + " readFrom=" + t.readFrom + " deps=" + t.deps.stream()
                .map(d -> d.on() + "@" + d.level() + (d.on().finished() ? "(done)" : "")).toList()).toList();
    }
}
