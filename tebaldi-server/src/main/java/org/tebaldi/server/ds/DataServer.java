package org.tebaldi.server.ds;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.storage.MultiVersionStore;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.replica.BackupReplicas;
import org.tebaldi.server.replica.ReplicaMessages;
import org.tebaldi.server.replica.ReplicatedLogStore;
import org.tebaldi.server.replica.ReplicationOptions;
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.epoch.EpochMessages;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.TxnHeader;
import org.tebaldi.server.msg.ValidateRequest;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Handlers;
import org.tebaldi.server.node.NodeBase;

/**
 * A data server (dissertation §4.5.1; docs/architecture.md, "A phase's path through the tree"): holds one
 * partition in its {@link MultiVersionStore}; its {@link DsModule} runs the DS part of every CC node of the tree,
 * and {@link DsPhases} answers each phase request from a coordinator with one reply after all levels ran.
 * Framework guarantees on top of the mechanisms: a transaction that read an uncommitted version cannot pass
 * validation here before that version's writer finished, and fails if the writer aborted (no aborted reads);
 * a reader of a version its writer later overwrote fails (no intermediate reads). This class keeps what only the
 * server knows: its transactions, its store, its history, failures of coordinators, durability, GC and
 * reconfiguration entry points.
 */
public final class DataServer extends NodeBase implements DsServices {
    /** Per CC node, the highest transaction timestamp its parts here served (outlives part rebuilds). */
    private final java.util.Map<Integer, Long> served = new java.util.HashMap<>();
    private static final Logger LOG = LoggerFactory.getLogger(DataServer.class);

    private final int index;
    private final DsModule module = new DsModule(this);
    private final DsPhases phases = new DsPhases(this);
    private final Handlers handlers = new Handlers();
    private final MultiVersionStore store;
    private final DsReconfig reconfig = new DsReconfig();
    private final Long2ObjectOpenHashMap<DsTxnImpl> txns =
            new Long2ObjectOpenHashMap<>();
    private final DsHistory history;
    private long historyPeriodMicros;
    /** Recovery rounds that dropped every transaction here so far ({@link #dropEverything}). */
    private int incarnation;
    private final DsTermination termination = new DsTermination(this, txns);
    private final GcEpochs gc;
    /** Versions installed and removed so far (written by this actor, read by samplers on other threads). */
    private volatile long versionsAdded;
    private volatile long versionsRemoved;
    private DsDurability dur;
    private DsRecovery recovery;
    private final DsEpochPrepare epochPrepare = new DsEpochPrepare(this);
    private final DsEpochs epochs = new DsEpochs(this, epochPrepare);
    private ReplicatedLogStore replicated;
    private BackupReplicas backups;
    /** Reads from the nearest replica (null unless {@code reads: nearest}). */
    private DsViews views;

    /** @param expectedKeys capacity hint for the store */
    public DataServer(int index, ClusterConfig cfg, int expectedKeys) {
        this.index = index;
        this.store = cfg.storage().open(index, cfg.dataServers(), cfg.db().catalog(), expectedKeys);
        this.history = new DsHistory(cfg.recordHistory());
        this.gc = new GcEpochs(this, cfg.gcEpochMicros(), cfg.recordHistory());
        module.install(cfg);
        handlers.on(NodeDown.class, (from, d) -> onNodeDown(d))
                .on(ExecRequest.class, phases::onExec)
                .on(ExecBatch.class, phases::onExecBatch)
                .on(ValidateRequest.class, phases::onValidate)
                .on(CommitRequest.class, (from, r) -> phases.onCommit(r))
                .on(AbortRequest.class, (from, r) -> phases.onAbort(r))
                .on(CcEnvelope.class, module::onEnvelope)
                // epoch-based commit: its prepared-write records are kept until the coordinators' commit or abort
                // messages, so an epoch is prepared here once every coordinator's share of it arrived and every
                // readiness condition (e.g. group durability's sync) is met, unless this server is recovering from
                // its log (DsEpochs, DsEpochPrepare)
                .on(EpochMessages.Prepare.class, epochs::onPrepare)
                .on(EpochMessages.Members.class, epochs::onMembers)
                .on(EpochMessages.Decision.class, epochs::onDecision)
                .on(ReplicaMessages.Ship.class, (from, sh) -> {
                    if (backups != null) {
                        backups.onShip(sh);
                    }
                })
                .on(ReplicaMessages.View.class, (from, v) -> {
                    if (views != null) {
                        views.onView(v);
                    }
                })
                .on(ReplicaMessages.Read.class, (from, rd) -> {
                    if (views != null) {
                        views.onRead(from, rd);
                    } else { // not kept here: the coordinator reads at the primary
                        sendMessage(from, new ReplicaMessages.ReadReply(rd.reqId(), false, null, 0, 1, 0));
                    }
                })
                .on(ReplicaMessages.Ack.class, (from, a) -> {
                    if (replicated != null && a.partition() == index) {
                        replicated.onAck(from.index(), a.seq());
                    }
                });
        reconfig.register(this, handlers);
    }

    /**
     * Opens this server's log store when the cluster runs with durability (dissertation §4.5.4); a no-op without.
     * Call before the node starts. If the store already held data (a restart), the server serves nothing until a
     * recovery round rebuilt it, and asks coordinator 0 for one when it starts.
     *
     * @param toSelf runs a store callback on this server's thread (e.g. by injecting a {@link LogStore.Callback})
     * @throws IllegalStateException if the store cannot be opened
     */
    public void openLog(java.util.concurrent.Executor toSelf) {
        openLog(toSelf, null);
    }

    /**
     * Opens the log store as {@link #openLog(java.util.concurrent.Executor)} does, or — when {@code promoted} is
     * not null — a backup's replica of this partition instead of this server's own store: the promotion of a backup
     * after its primary failed (docs/mechanisms.md "Replication"). The replica holds data, so the server recovers
     * from it. A promoted server ships to no backups (none is rebuilt); with replication on, every other server
     * ships its log to its backups ({@link ReplicatedLogStore}) and keeps the replicas of its neighbours
     * ({@link BackupReplicas}).
     *
     * @throws IllegalStateException if the store cannot be opened
     */
    public void openLog(java.util.concurrent.Executor toSelf, org.tebaldi.server.durability.LogStore.Factory promoted) {
        ClusterConfig cfg = config();
        org.tebaldi.server.durability.DurabilityOptions d = cfg.durability();
        if (!d.enabled() || dur != null) {
            return;
        }
        org.tebaldi.server.durability.LogStore.Factory f = promoted != null ? promoted
                : d.stores() != null ? d.stores() : org.tebaldi.server.durability.RocksLogStore.factory(d);
        org.tebaldi.server.durability.LogStore st = f.open(index, cfg.db().catalog(), toSelf);
        if (d.writeLatencyMicros() > 0) {
            st = new org.tebaldi.server.durability.DelayedLogStore(st, d.writeLatencyMicros(), this::nowMicros,
                    this::schedule);
        }
        ReplicationOptions r = cfg.replication();
        if (r.enabled()) {
            if (promoted == null && !st.hadData()) {
                replicated = new ReplicatedLogStore(st, index, r.mode(), r.backupsOf(index, cfg.dataServers()),
                        cfg.db().catalog(), this::sendMessage, (d2, task) -> schedule(d2, task));
                st = replicated;
                // an epoch commits only once replicated (COCO §4): the prepare's answer waits until every write
                // shipped so far is on the backups
                ReplicatedLogStore rs = replicated;
                epochPrepare.add((epoch, ready) -> rs.afterReplicated(ready));
            }
            backups = new BackupReplicas(index, r.stores() != null ? r.stores()
                    : d.dir() == null ? ReplicationOptions.memory() : ReplicationOptions.rocksDb(d.dir()),
                    cfg.db().catalog(), toSelf, this::sendMessage);
            if (r.nearestReads()) {
                views = new DsViews(this, index, r, replicated != null);
                backups.onLoadRows(views.views()::seed);
            }
        }
        boolean group = d.sync() && cfg.commitProtocol() == org.tebaldi.server.node.CommitProtocol.EPOCH;
        dur = new DsDurability(this, d, st, group);
        if (group) {
            DsDurability gd = dur;
            epochPrepare.add((epoch, ready) -> gd.syncForEpoch(ready));
        }
        dur.recovering = dur.store.hadData();
        recovery = new DsRecovery(this, dur);
    }

    /** The log store this server writes (null without durability): a promoted server's is its backup's replica. */
    public org.tebaldi.server.durability.LogStore logStore() {
        return dur == null ? null : dur.store;
    }

    /** This partition's replicated log (null unless replication is on and this server ships to backups). */
    public ReplicatedLogStore replicatedLog() {
        return replicated;
    }

    /** The applied views this server keeps for reads from the nearest replica (null unless {@code reads: nearest}). */
    public org.tebaldi.server.replica.ReplicaViews replicaViews() {
        return views == null ? null : views.views();
    }

    /**
     * Reads from the nearest replica: {@code t} committed here with global epoch {@code epoch}, its versions
     * stamped; they leave for the backups' views with the next tick. No-op unless this server ships views.
     */
    void viewCommitted(DsTxnImpl t, long epoch) {
        if (views != null) {
            views.committed(t, epoch);
        }
    }

    /** The backups this server keeps of other partitions (null unless replication is on). */
    public BackupReplicas backupReplicas() {
        return backups;
    }

    /** Whether this server restarted from a store that held data (it recovers before serving). */
    public boolean restarted() {
        return dur != null && dur.store.hadData();
    }

    /**
     * Blocks until the initial rows loaded so far are in the store (call from the loading thread, before the node
     * starts); a no-op without durability.
     */
    public void awaitLoaded() throws InterruptedException {
        if (dur != null) {
            dur.flushLoads();
            dur.store.awaitWritten();
        }
    }

    /** Closes the log store (after the node stopped); a no-op without durability. */
    public void closeLog() {
        if (dur != null) {
            dur.store.close();
        }
        if (backups != null) {
            backups.close();
        }
    }

    /**
     * Prepare phase of the partial restart (dissertation §5.5.1), once every coordinator drained: a new CC module
     * for {@code tree}, and the root CC's state rebuilt from the storage module — every committed version re-based
     * as if a virtual recovery transaction beneath the root wrote it (§4.5.4). Only chains written since the last
     * re-basing hold CC metadata (loaded versions have none), so only those are visited.
     */
    void restartCc(CcTree tree) {
        ClusterConfig cfg = config();
        if (!txns.isEmpty()) {
            LOG.error("ds{}: {} transactions left when preparing a reconfiguration: {}", index, txns.size(),
                    describeLive(5));
            if (dur != null) {
                txns.values().forEach(dur::forget);
            }
            txns.clear();
        }
        module.install(cfg.withTree(tree));
        gc.reset();
        store.rebaseAll();
    }

    /**
     * Online update (dissertation §5.5.2): switches to a tree derived from the current one with node ids kept.
     * Parts of nodes still present and not retired stay (rebound to their node in the new tree, keeping their
     * locks and waits); new nodes get new parts; retired nodes lose theirs.
     */
    void updateCc(CcTree tree) {
        module.update(config().withTree(tree));
        gc.partsChanged();
    }

    /** Data servers of the cluster. */
    int dataServers() {
        return config().dataServers();
    }

    /** Recovery began: every transaction and the whole in-memory state go; the store is rebuilt from the log. */
    void dropEverything() {
        incarnation++;
        if (views != null) {
            views.recoveryBegan();
        }
        versionsRemoved = versionsAdded - gc.pruned();
        txns.clear();
        store.clear();
        gc.reset();
        history.clearPruned();
        module.install(config());
    }

    /** Recovery, step 3: a fresh CC module over the recovered, re-based versions. */
    void rebuildCc() {
        module.install(config());
        gc.reset();
    }

    /** Recovery finished: serve again. */
    void resumeAfterRecovery() {
        termination.forgetDead();
    }

    void setPrunedOrder(Key key, long[] writers) {
        for (long w : writers) {
            history.pruned(key, w);
        }
    }

    String typeName(int typeId) {
        return database().type(typeId).name();
    }

    /** Coordinators of the cluster. */
    int coordinators() {
        return config().coordinators();
    }

    /** Sends a framework message (reconfiguration protocols). */
    void sendMessage(NodeId to, Object msg) {
        ctx.send(to, msg);
    }

    /**
     * Loads a committed initial row, bypassing concurrency control (and, with durability, into the store's data).
     *
     * @throws IllegalStateException if this server restarted from its store (it recovers its data instead)
     */
    public void load(Key key, Row row) {
        if (dur != null) {
            if (dur.store.hadData()) {
                throw new IllegalStateException("ds" + index + " restarted from its store: it recovers its data and"
                        + " takes no initial rows");
            }
            dur.load(key, row);
        }
        store.load(key, row);
        versionsAdded++;
    }

    @Override
    protected void started() {
        if (history.streaming()) {
            Runnable[] tick = new Runnable[1];
            tick[0] = () -> {
                history.handOver(store, false);
                schedule(historyPeriodMicros, tick[0]);
            };
            schedule(historyPeriodMicros, tick[0]);
        }
        if (config().profileFlushMicros() > 0) {
            enableProfiling(new NodeId(Role.MONITOR, 0), config().profileFlushMicros());
        }
        if (dur != null) {
            dur.flushLoads();
            if (replicated != null) {
                replicated.start();
            }
            if (views != null) {
                views.start();
            }
            dur.start();
            if (dur.store.hadData()) {
                recovery.request();
            }
        }
        termination.start();
    }

    @Override
    protected void handle(NodeId from, Object msg) {
        if (recovery != null && recovery.guard(from, msg)) {
            return;
        }
        if (!handlers.dispatch(from, msg)) {
            LOG.warn("ds{}: unexpected message {} from {}", index, msg, from);
        }
        if (reconfig.waitingForOutcomes()) {
            reconfig.proceed(this);
        }
    }

    /** A node failed: data servers tell replication; a coordinator's transactions here go ({@link DsTermination}). */
    private void onNodeDown(NodeDown d) {
        if (d.node().role() == Role.DS) {
            if (replicated != null) {
                replicated.nodeDown(d.node().index());
            }
            if (backups != null) {
                backups.primaryDown(d.node().index());
            }
            if (views != null) {
                views.dataServerDown(d.node().index());
            }
        }
        if (d.node().role() != Role.TC) {
            return;
        }
        termination.coordinatorFailed(d.node(), d.reason(), epochs);
    }

    /**
     * The transaction of {@code h}, created at its first request here (every DS part makes its state), with the
     * request's metadata seen by every level; null if its coordinator is dead.
     */
    DsTxnImpl txnFor(TxnHeader h, Object[] meta) {
        long id = h.txnId();
        DsTxnImpl t = txns.get(id);
        if (t == null && termination.coordinatorDead(Math.max(0, TxnIds.coordinator(id)))) {
            return null;
        }
        if (t == null) {
            t = new DsTxnImpl(h, config().tree().path(h.leaf()));
            t.gcEpoch = gc.join();
            t.incarnation = incarnation;
            if (dur != null && history.recording()) {
                t.loggedReads = new ArrayList<>(2);
            }
            module.newStates(t);
            txns.put(id, t);
        }
        if (!t.finished()) {
            requestArrived(t, meta);
        }
        return t;
    }

    /** A request with {@code meta} arrived for live {@code t}: the metadata is set and every level sees it. */
    void requestArrived(DsTxnImpl t, Object[] meta) {
        t.heardAt = nowMicros();
        t.setMeta(meta);
        module.onRequest(t);
    }

    /**
     * Streams the recorded history to {@code stream} as node {@code source}, handing it over every
     * {@code periodMicros} µs, instead of keeping it whole (docs/architecture.md, "Verification"). No effect unless
     * the history is recorded; call before the node starts; not with durability recovery (not supported: a
     * recovery rewrites the history).
     */
    public void streamHistory(org.tebaldi.core.history.HistoryHandOver stream, int source, long periodMicros) {
        history.stream(stream, source);
        this.historyPeriodMicros = periodMicros;
    }

    /** Streamed checking: the last hand-over, with every remaining committed version. Call once it stopped. */
    public void finishHistoryStream() {
        history.handOver(store, true);
    }

    /** What this server records for the history checker. */
    DsHistory recorder() {
        return history;
    }

    DsModule module() {
        return module;
    }

    DsTermination termination() {
        return termination;
    }

    DsReconfig reconfig() {
        return reconfig;
    }

    DsPhases phases() {
        return phases;
    }

    DsDurability durability() {
        return dur;
    }

    GcEpochs gc() {
        return gc;
    }

    /** How many times a recovery round dropped every transaction here; a transaction of an earlier one is gone. */
    int incarnation() {
        return incarnation;
    }

    DsTxnImpl txnImpl(long id) {
        return txns.get(id);
    }

    /** The transaction leaves this server's table (its commit or abort arrived from the coordinator). */
    DsTxnImpl removeTxn(long id) {
        return txns.remove(id);
    }

    /** An aborted transaction removed {@code n} versions. */
    void versionsRemoved(int n) {
        versionsRemoved += n;
    }

    void send(NodeId to, Object msg) {
        ctx.send(to, msg);
    }

    /** This server's CC counters ({@link org.tebaldi.core.cc.DsPart#counters}, e.g. DST's snapshot reads). */
    public java.util.Map<String, Long> ccCounters() {
        return module.counters();
    }

    /**
     * The recorded history with each written key's final committed version order; null if recording is off. Call
     * after the node stopped.
     */
    public HistoryLog history() {
        return history.export(store);
    }

    /** One line per transaction with state here (at most {@code max}) — for diagnostics. */
    public List<String> describeLive(int max) {
        return txns.values().stream().limit(max).map(t -> t + (t.finished() ? " aborted-here" : " live")
                + (t.doomed != null ? " doomed" : "") + " readFrom=" + t.readFrom + " deps=" + t.deps.stream()
                .map(d -> d.on() + "@" + d.level() + (d.on().finished() ? "(done)" : "")).toList()).toList();
    }

    /** A transaction installed a new version (a write of a key it had not written). */
    void versionAdded() {
        versionsAdded++;
    }

    /**
     * Versions held in the store, kept as a running count (so another thread may sample it during a run without
     * touching the store); exact once the node is quiet.
     */
    public long versionCount() {
        return versionsAdded - versionsRemoved - gc.pruned();
    }

    /** Keys in the store (sampled from another thread: approximate while the node runs). */
    public long keyCount() {
        return store.keyCount();
    }

    /** Versions pruned by garbage collection so far (dissertation §4.5.3). */
    public long prunedVersions() {
        return gc.pruned();
    }

    /** Whether this server is recovering (between a restart or a recovery round's start and its end). */
    public boolean recovering() {
        return dur != null && dur.recovering;
    }

    /** The current GCP epoch (0 without durability). */
    public long gcpEpoch() {
        return dur == null ? 0 : dur.epoch();
    }

    /** Number of transactions with state at this server (live, or aborted here awaiting the TC's abort). */
    public int liveTransactions() {
        return txns.size();
    }

    @Override
    protected ClusterConfig config() {
        return module.config();
    }

    @Override
    public void addDependency(DsTxn owner, DsTxn on, int level) {
        phases.addDependency((DsTxnImpl) owner, on, level);
    }

    @Override
    public int dsIndex() {
        return index;
    }

    /** The storage module of this server (data-server thread, or after the node stopped). */
    public MultiVersionStore store() {
        return store;
    }

    @Override
    public VersionChain find(Key key) {
        return store.find(key);
    }

    @Override
    public void served(int ccNode, long ts) {
        served.merge(ccNode, ts, Math::max);
    }

    @Override
    public long highestServed(int ccNode) {
        return served.getOrDefault(ccNode, -1L);
    }

    @Override
    public DsTxn txn(long id) {
        return txns.get(id);
    }

    @Override
    public void awaitFinish(DsTxn other, Consumer<Boolean> onFinish) {
        DsTxnImpl o = (DsTxnImpl) other;
        if (!o.onFinish(onFinish)) {
            later(() -> onFinish.accept(o.committed()));
        }
    }

    /** The cluster's access sampler (Chiller's contention statistics), or null. */
    org.tebaldi.server.node.AccessSampler accessSampler() {
        return config().accessSampler();
    }
}
