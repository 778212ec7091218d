package org.tebaldi.server.ds;

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
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateRequest;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Features;
import org.tebaldi.server.node.Handlers;
import org.tebaldi.server.node.NodeBase;

/**
 * A data server (dissertation §4.5.1; docs/architecture.md, "A phase's path through the tree"): holds one
 * partition in its {@link MultiVersionStore}; its {@link DsModule} runs the DS part of every CC node of the tree,
 * and {@link DsPhases} answers each phase request from a coordinator with one reply after all levels ran.
 * Framework guarantees on top of the mechanisms: a transaction that read an uncommitted version cannot pass
 * validation here before that version's writer finished, and fails if the writer aborted (no aborted reads);
 * a reader of a version its writer later overwrote fails (no intermediate reads). This class keeps what only the
 * server knows — its transaction table ({@link DsTxns}), store, history and GC — and the list of cluster features
 * it runs ({@link DsFeature}: durability, recovery, replication, epoch commit, termination, reconfiguration), built
 * from the configuration and joined at named points (docs/architecture.md, "Nodes and features").
 */
public final class DataServer extends NodeBase implements DsServices {
    private static final Logger LOG = LoggerFactory.getLogger(DataServer.class);

    private final int index;
    private final DsModule module = new DsModule(this);
    private final DsPhases phases = new DsPhases(this);
    private final Handlers handlers = new Handlers();
    private final MultiVersionStore store;
    private final DsTxns txns = new DsTxns(this);
    private final DsHistory history;
    private final DsTermination termination = new DsTermination(this);
    private final DsReconfig reconfig = new DsReconfig(this);
    private final GcEpochs gc;
    /** The cluster features this server runs, built from the configuration ({@link DsFeatures}). */
    private final Features<DsFeature> features;

    /**
     * A data server with the features {@code cfg} turns on ({@link DsFeatures}; docs/architecture.md, "Nodes and
     * features"). With durability its log store is opened now (dissertation §4.5.4): {@code promoted}'s — a
     * backup's replica of this partition, the promotion of a backup after its primary failed (docs/mechanisms.md
     * "Replication") — if not null, else its own. A store that held data (a restart) makes the server serve nothing
     * until a recovery round rebuilt it; it asks coordinator 0 for one when it starts.
     *
     * @param expectedKeys capacity hint for the store
     * @param toSelf       runs a store callback on this server's thread (e.g. by injecting a {@link
     *                     org.tebaldi.server.durability.LogStore.Callback}); null opens no log store (durability
     *                     and replication then stay off whatever {@code cfg} says)
     * @throws IllegalStateException if the store cannot be opened
     */
    public DataServer(int index, ClusterConfig cfg, int expectedKeys, java.util.concurrent.Executor toSelf,
            org.tebaldi.server.durability.LogStore.Factory promoted) {
        this.index = index;
        this.store = cfg.storage().open(index, cfg.dataServers(), cfg.db().catalog(), expectedKeys);
        this.history = new DsHistory(cfg.recordHistory());
        this.gc = new GcEpochs(this, cfg.gcEpochMicros(), cfg.recordHistory());
        module.install(cfg);
        handlers.on(NodeDown.class, (from, d) -> features().nodeDown(d))
                .on(ExecRequest.class, phases::onExec)
                .on(ExecBatch.class, phases::onExecBatch)
                .on(ValidateRequest.class, phases::onValidate)
                .on(CommitRequest.class, (from, r) -> phases.onCommit(r))
                .on(AbortRequest.class, (from, r) -> phases.onAbort(r))
                .on(CcEnvelope.class, module::onEnvelope);
        this.features = DsFeatures.build(this, toSelf, promoted).register(handlers);
    }

    /** The features this server runs, in the order their points run. */
    Features<DsFeature> features() {
        return features;
    }

    /** The log store this server writes (null without durability): a promoted server's is its backup's replica. */
    public org.tebaldi.server.durability.LogStore logStore() {
        return features.find(DsDurability.class).map(d -> d.store).orElse(null);
    }

    /** Replication's state here ({@code cluster.replication}), if on. */
    public java.util.Optional<DsReplication> replication() {
        return features.find(DsReplication.class);
    }

    /** Every feature's counters by name (e.g. {@code durability.epochSyncs}); approximate while running. */
    public java.util.Map<String, Long> featureCounters() {
        return features.counters();
    }

    /** Whether this server restarted from a store that held data (it recovers before serving). */
    public boolean restarted() {
        return features.list().stream().anyMatch(DsFeature::restarted);
    }

    /** Blocks until the initial rows loaded so far are stored (loading thread, before the node starts). */
    public void awaitLoaded() throws InterruptedException {
        for (DsFeature f : features.list()) {
            f.awaitLoaded();
        }
    }

    /** Closes what the features hold open, e.g. the log store (after the node stopped). */
    public void closeLog() {
        features.each(DsFeature::close);
    }

    /**
     * Loads a committed initial row, bypassing concurrency control (and, with durability, into the store's data).
     * @throws IllegalStateException if this server restarted from its store (it recovers its data instead)
     */
    public void load(Key key, Row row) {
        features.each(f -> f.load(key, row));
        store.load(key, row);
        txns.versionAdded();
    }

    @Override
    protected void started() {
        history.start(this, store, config().gcEpochMicros() > 0);
        if (config().profileFlushMicros() > 0) {
            enableProfiling(new NodeId(Role.MONITOR, 0), config().profileFlushMicros());
        }
        features.each(DsFeature::flushLoads);
        features.each(DsFeature::start);
    }

    @Override
    protected void handle(NodeId from, Object msg) {
        if (features.intercept(from, msg)) {
            return;
        }
        if (!handlers.dispatch(from, msg)) {
            LOG.warn("ds{}: unexpected message {} from {}", index, msg, from);
        }
        features.each(DsFeature::afterMessage);
    }

    /**
     * Streams the recorded history to {@code stream} as node {@code source}, handing it over every
     * {@code periodMicros} µs, instead of keeping it whole (docs/architecture.md, "Verification"). No effect unless
     * the history is recorded; call before the node starts; not with durability recovery (not supported: a
     * recovery rewrites the history).
     */
    public void streamHistory(org.tebaldi.core.history.HistoryHandOver stream, int source, long periodMicros) {
        history.stream(stream, source, periodMicros);
    }

    /** Streamed checking: the last hand-over, with every remaining committed version. Call once it stopped. */
    public void finishHistoryStream() {
        gc.forEachPendingWrite((key, chain) -> history.reportFinal(key, chain, true));
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

    /** The transaction table. */
    DsTxns txns() {
        return txns;
    }

    DsPhases phases() {
        return phases;
    }

    GcEpochs gc() {
        return gc;
    }

    /** Sends a framework message. */
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
        return txns.describe(max);
    }

    /**
     * Versions held in the store, kept as a running count (so another thread may sample it during a run without
     * touching the store); exact once the node is quiet.
     */
    public long versionCount() {
        return txns.versionCount(gc.pruned());
    }

    /** Versions pruned by garbage collection so far (dissertation §4.5.3). */
    public long prunedVersions() {
        return gc.pruned();
    }

    /** Whether this server is recovering (between a restart or a recovery round's start and its end). */
    public boolean recovering() {
        return features.list().stream().anyMatch(DsFeature::recovering);
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

    @Override
    public int coordinators() {
        return config().coordinators();
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
        module.served(ccNode, ts);
    }

    @Override
    public long highestServed(int ccNode) {
        return module.highestServed(ccNode);
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
}
