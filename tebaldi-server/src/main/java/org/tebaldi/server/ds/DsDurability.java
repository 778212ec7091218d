package org.tebaldi.server.ds;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.durability.BatchingLogStore;
import org.tebaldi.server.durability.DurabilityOptions;
import org.tebaldi.server.durability.LogRecord;
import org.tebaldi.server.durability.LogStore;
import org.tebaldi.server.durability.RocksLogStore;
import org.tebaldi.server.durability.SimLogStore;
import org.tebaldi.server.msg.Durable;
import org.tebaldi.server.replica.ReplicatedLogStore;

/**
 * A data server's logging and GCP epochs (dissertation §4.5.4). Operation logs are kept with the transaction
 * during execution (its versions) and written, with the precommit log, in one store write when every CC passed
 * validation here — an aborted attempt never reaches the disk. The precommit log carries the server's current GCP
 * epoch, which goes back with the vote; the commit carries the transaction's global epoch id (the largest of its
 * participants'), and a server whose epoch is lower advances to it before any CC's commit phase, so a transaction
 * that read another's write always has a global epoch at least the writer's. Commit and abort records follow.
 *
 * <p>An epoch is closed — every record stamped with it or an earlier one written, and the outcome of every
 * transaction precommitted in those epochs logged — once the server moved past it; then a synced
 * {@link LogRecord.Persisted} record makes it durable and the server reports it to every coordinator and data
 * server ({@link Durable.Persisted}). Asynchronous mode advances the epoch every {@code epochMicros}; synchronous
 * mode syncs each precommit log before the vote and advances as soon as the previous epoch is on disk. A server
 * that hears another reached a later epoch advances too, so idle servers do not hold the cluster's cut back.
 *
 * <p><b>Group durability</b> (synchronous mode under epoch-based commit, COCO §3: the durable prepared-write record
 * of an epoch): precommit logs are written without a sync and the vote leaves at once; instead, before this server
 * answers a commit epoch's {@code Prepare}, one synced write makes everything logged so far durable
 * ({@link #syncForEpoch}) — one sync per commit epoch instead of one per transaction.
 */
final class DsDurability implements DsFeature {
    private static final int LOAD_CHUNK = 5_000;

    private final DataServer ds;
    private final DurabilityOptions opts;
    final LogStore store;
    private final TreeMap<Long, int[]> undecided = new TreeMap<>();
    private final List<LogRecord.Data> loading = new ArrayList<>();
    long current = 1;
    long persisted;
    long round;
    private long closing;
    private boolean syncing;
    private boolean dirty;
    boolean recovering;
    private boolean ticking;
    /** Group durability: precommits are not synced one by one; {@link #syncForEpoch} syncs once per epoch. */
    private final boolean group;
    private volatile long epochSyncs;

    /** @param group group durability under epoch-based commit (with synchronous mode only) */
    DsDurability(DataServer ds, DurabilityOptions opts, LogStore store, boolean group) {
        this.ds = ds;
        this.opts = opts;
        this.store = store;
        this.group = group && opts.sync();
        this.recovering = store.hadData();
    }

    /**
     * Opens the log store of {@code ds} (dissertation §4.5.4): {@code promoted}'s (a backup's replica of this
     * partition, docs/mechanisms.md "Replication") if not null, else the configured one; a RocksDB store, or the
     * simulated model of one, behind a {@link BatchingLogStore}; all of it behind a write latency if one is set. A
     * store that held data (a restart) makes the server recover before it serves.
     *
     * @param toSelf runs a store callback on the server's thread
     * @throws IllegalStateException if the store cannot be opened
     */
    static LogStore openStore(DataServer ds, java.util.concurrent.Executor toSelf, LogStore.Factory promoted) {
        org.tebaldi.server.node.ClusterConfig cfg = ds.config();
        DurabilityOptions d = cfg.durability();
        LogStore.Factory f = promoted != null ? promoted : d.stores() != null ? d.stores() : RocksLogStore.factory(d);
        LogStore st = f.open(ds.dsIndex(), cfg.db().catalog(), toSelf);
        if (st instanceof RocksLogStore || st instanceof SimLogStore) {
            // the unsynced writes of a millisecond reach the writer as one group (the model: as the real store)
            st = new BatchingLogStore(st, BatchingLogStore.DEFAULT_FLUSH_MICROS, BatchingLogStore.DEFAULT_MAX_RECORDS,
                    ds::schedule);
        }
        if (d.writeLatencyMicros() > 0) {
            st = new org.tebaldi.server.durability.DelayedLogStore(st, d.writeLatencyMicros(), ds::nowMicros,
                    ds::schedule);
        }
        return st;
    }

    // ---- the feature's points (docs/architecture.md, "Nodes and features") ---------------------------------

    @Override
    public void txnCreated(DsTxnImpl t) {
        if (ds.recorder().recording()) {
            t.loggedReads = new ArrayList<>(2);
        }
    }

    @Override
    public void beforeVote(DsTxnImpl t, int writers, long epoch, LongConsumer next) {
        if (t.finished()) {
            next.accept(epoch);
        } else {
            precommit(t, writers, next);
        }
    }

    @Override
    public void beforeCommit(long epoch) {
        if (epoch > current) {
            advanceTo(epoch);
        }
    }

    @Override
    public void afterCommit(DsTxnImpl t, long epoch) {
        committed(t, epoch);
    }

    @Override
    public void afterAbort(DsTxnImpl t) {
        aborted(t);
    }

    @Override
    public void dropped(DsTxnImpl t) {
        forget(t);
    }

    @Override
    public void beforeEpochPrepared(long epoch, Runnable ready) {
        if (group) {
            syncForEpoch(ready);
        } else {
            ready.run();
        }
    }

    @Override
    public boolean recovering() {
        return recovering;
    }

    @Override
    public boolean restarted() {
        return store.hadData();
    }

    /** @throws IllegalStateException if this server restarted from its store (it recovers its data instead) */
    @Override
    public void load(Key key, Row row) {
        if (store.hadData()) {
            throw new IllegalStateException("ds" + ds.dsIndex() + " restarted from its store: it recovers its data"
                    + " and takes no initial rows");
        }
        loading.add(new LogRecord.Data(key, 0, 0, row));
        if (loading.size() >= LOAD_CHUNK) {
            flushLoads();
        }
    }

    @Override
    public void awaitLoaded() throws InterruptedException {
        flushLoads();
        store.awaitWritten();
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public void counters(Map<String, Long> out) {
        out.merge("durability.epochSyncs", epochSyncs, Long::sum);
        out.merge("durability.gcpEpoch", current, Long::sum);
    }

    /**
     * Group durability: syncs everything logged so far — every precommit record whose vote left before this call —
     * then runs {@code ready} (on this server's thread).
     */
    void syncForEpoch(Runnable ready) {
        epochSyncs++;
        store.write(List.of(), true, ready);
    }

    /** Starts the epoch timer. */
    @Override
    public void start() {
        if (!ticking) {
            ticking = true;
            ds.schedule(opts.epochMicros(), this::tick);
        }
    }

    private void tick() {
        if (!recovering) {
            advanceTo(current + 1);
        }
        ds.schedule(opts.epochMicros(), this::tick);
    }

    /** Writes the buffered initial rows. */
    @Override
    public void flushLoads() {
        if (!loading.isEmpty()) {
            store.load(new ArrayList<>(loading));
            loading.clear();
        }
    }

    /**
     * Writes the precommit log of {@code t} (with its operation logs) if it wrote here or the history is recorded,
     * then calls {@code reply} with the epoch to vote with — after the write is synced in synchronous mode, and under
     * replication after the backups acknowledged it in sync replication mode or when a DS part released locks of
     * {@code t} here before its vote ({@link org.tebaldi.core.cc.EarlyRelease}).
     *
     * @param writers the number of data servers the transaction wrote at
     */
    void precommit(DsTxnImpl t, int writers, LongConsumer reply) {
        long e = current;
        if (!t.writeOps && t.loggedReads == null) {
            reply.accept(e);
            return;
        }
        List<LogRecord> recs = new ArrayList<>(t.writes.size() + 1);
        int i = 0;
        for (DsTxnImpl.Written w : t.writes) {
            recs.add(new LogRecord.Op(t.id(), i++, w.key(), w.version().orderKey(), w.version().writeSeq(),
                    w.version().value()));
        }
        recs.add(new LogRecord.Precommit(t.id(), e, t.writeOps ? Math.max(1, writers) : 0, t.typeId(),
                t.writes.size(), t.loggedReads));
        org.tebaldi.core.runtime.cost.HandlerUnits.add(recs.size()); // this handler's logging (docs/simulation.md)
        t.logEpoch = e;
        undecided.computeIfAbsent(e, x -> new int[1])[0]++;
        dirty = true;
        boolean syncNow = opts.sync() && !group;
        if (store instanceof ReplicatedLogStore rs && (t.releasedBeforeVote || rs.precommitWaits())) {
            // under replication the vote follows the backups' copy: in sync mode always (2PC(sync)), in both modes
            // for a transaction whose locks were released here before the vote (EarlyRelease)
            if (t.releasedBeforeVote) {
                rs.writeReleased(recs, syncNow, () -> reply.accept(e));
            } else {
                rs.write(recs, syncNow, () -> reply.accept(e));
            }
        } else if (syncNow) {
            store.write(recs, true, () -> reply.accept(e));
        } else {
            store.write(recs, false, null);
            reply.accept(e);
        }
    }

    /** Logs the commit of {@code t} (if it was precommitted here). */
    void committed(DsTxnImpl t, long g) {
        if (t.logEpoch >= 0) {
            store.write(List.of(new LogRecord.Commit(t.id(), g)), false, null);
            decided(t);
        }
    }

    /** Logs the abort of {@code t} after its precommit (if it was precommitted here). */
    void aborted(DsTxnImpl t) {
        if (t.logEpoch >= 0) {
            store.write(List.of(new LogRecord.Abort(t.id())), false, null);
            decided(t);
        }
    }

    /** Forgets {@code t} without an outcome record (its state is dropped; recovery will not find a commit). */
    void forget(DsTxnImpl t) {
        if (t.logEpoch >= 0) {
            decided(t);
        }
    }

    private void decided(DsTxnImpl t) {
        Map.Entry<Long, int[]> en = undecided.floorEntry(t.logEpoch);
        if (en != null && en.getKey() == t.logEpoch && --en.getValue()[0] == 0) {
            undecided.remove(t.logEpoch);
        }
        t.logEpoch = -1;
        dirty = true;
        if (opts.sync()) {
            kick();
        } else {
            tryClose();
        }
    }

    /** Another data server persisted {@code epoch}: epochs up to it can close here too. */
    void peerPersisted(long epoch) {
        if (!recovering && epoch >= current) {
            advanceTo(epoch + 1);
        }
    }

    private void advanceTo(long e) {
        if (e > current) {
            current = e;
            dirty = false;
        }
        tryClose();
    }

    /** Synchronous mode: start the next epoch as soon as nothing is being synced. */
    private void kick() {
        if (!syncing && dirty) {
            advanceTo(current + 1);
        }
    }

    private void tryClose() {
        if (syncing || recovering) {
            return;
        }
        long e = current - 1;
        if (!undecided.isEmpty()) {
            e = Math.min(e, undecided.firstKey() - 1);
        }
        if (e <= persisted) {
            return;
        }
        long target = e;
        syncing = true;
        flushLoads();
        store.write(List.of(new LogRecord.Persisted(target)), true, () -> {
            syncing = false;
            if (recovering) {
                return;
            }
            persisted = Math.max(persisted, target);
            report();
            if (opts.sync()) {
                kick();
            }
            tryClose();
        });
    }

    private void report() {
        Durable.Persisted p = new Durable.Persisted(ds.dsIndex(), round, persisted);
        for (int i = 0; i < ds.config().coordinators(); i++) {
            ds.send(NodeId.tc(i), p);
        }
        for (int i = 0; i < ds.config().dataServers(); i++) {
            if (i != ds.dsIndex()) {
                ds.send(NodeId.ds(i), p);
            }
        }
    }

    /** Recovery began: no epoch closes until it finished; every undecided transaction is forgotten. */
    void suspend() {
        recovering = true;
        undecided.clear();
        loading.clear();
    }

    /** Recovery finished: epochs restart at {@code base}; everything before is on disk. */
    void resume(long newRound, long base) {
        round = newRound;
        current = base;
        persisted = base - 1;
        recovering = false;
        syncing = false;
        dirty = false;
        report();
    }

}
