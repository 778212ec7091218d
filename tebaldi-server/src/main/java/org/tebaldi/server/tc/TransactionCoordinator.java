package org.tebaldi.server.tc;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.ExecReplies;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Features;
import org.tebaldi.server.node.Handlers;
import org.tebaldi.server.node.NodeBase;

/**
 * A transaction coordinator (dissertation §4.3.1, §4.5.1; docs/architecture.md, "A phase's path through the tree"):
 * the live transactions and what runs them. The client protocol is {@link TcClients}'s; the CC passes over each
 * transaction's path run in its {@link TcModule}; operations, whatever the execution mode, go out through the
 * {@link OpExecutor}, one request per involved data server; validation and two-phase commit are {@link TcCommit}'s.
 * Its cluster features ({@link TcFeature}: termination, durability and recovery, reconfiguration, epoch-based
 * commit, failures) are built from the configuration ({@link TcFeatures}) and joined at named points
 * (docs/architecture.md, "Nodes and features").
 */
public final class TransactionCoordinator extends NodeBase implements TcServices {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);

    private final int index;
    private final TcModule module = new TcModule(this);
    private final OpExecutor executor = new OpExecutor(this);
    private final TcCommit commits = new TcCommit(this);
    private final TcClients clients = new TcClients(this);
    private final Long2ObjectOpenHashMap<TcTxnImpl> txns = new Long2ObjectOpenHashMap<>();
    private final TcHistory history;
    private final Handlers handlers = new Handlers();
    private final TcTermination termination = new TcTermination(this);
    private final TcFailures failures = new TcFailures(this);
    private final Features<TcFeature> features;

    /** A coordinator with the features {@code cfg} turns on ({@link TcFeatures}). */
    public TransactionCoordinator(int index, ClusterConfig cfg) {
        this.index = index;
        this.history = new TcHistory(cfg.recordHistory());
        module.install(cfg);
        handlers.on(NodeDown.class, (from, d) -> features().nodeDown(d))
                .on(ExecReply.class, (from, r) -> executor.onReply(r))
                .on(org.tebaldi.server.replica.ReplicaMessages.ReadReply.class,
                        (from, r) -> executor.replicaReads().onReply(r))
                .on(ExecReplies.class, (from, rs) -> {
                    for (ExecReply r : rs.replies()) {
                        executor.onReply(r);
                    }
                })
                .on(ValidateReply.class, (from, r) -> commits.onReply(r))
                .on(CcEnvelope.class, module::onEnvelope);
        clients.register(handlers);
        this.features = TcFeatures.build(this, cfg).register(handlers);
    }

    /**
     * Makes this coordinator abort a transaction whose data-server requests have had no reply for
     * {@code micros} µs (a lost message, or a server that hangs without leaving ZooKeeper), checked every quarter
     * of the timeout (at least 100 ms). 0 (the default, and the only sensible value under simulation) disables it.
     * Call before the node starts.
     */
    public void setReplyTimeout(long micros) {
        termination.setReplyTimeout(micros);
    }

    /**
     * Makes this coordinator's transaction ids start above {@code seq} — a coordinator restarted together with data
     * servers that recover logged transactions must not reuse their ids. Call before the node starts.
     */
    public void startIdsAbove(long seq) {
        clients.startIdsAbove(seq);
    }

    @Override
    protected void started() {
        history.start(this);
        if (config().profileFlushMicros() > 0) {
            enableProfiling(new NodeId(Role.MONITOR, 0), config().profileFlushMicros());
        }
        features.each(TcFeature::start);
    }

    @Override
    protected void handle(NodeId from, Object msg) {
        if (features.intercept(from, msg)) {
            return;
        }
        if (!handlers.dispatch(from, msg)) {
            LOG.warn("tc{}: unexpected message {} from {}", index, msg, from);
        }
    }

    /**
     * Drops what the CC parts keep of data-server state across transactions, as a recovery round does: the next
     * reads go to the data servers (a cached read is serializable, yet may be stale in real time). Call on this
     * node's thread, or in the simulation between events.
     */
    public void dropCaches() {
        module.storageRecovered();
    }

    // ---- what the coordinator's helpers and features share (package-private) ---------------------------------

    TcModule module() {
        return module;
    }

    OpExecutor executor() {
        return executor;
    }

    TcCommit commits() {
        return commits;
    }

    Features<TcFeature> features() {
        return features;
    }

    TcTermination termination() {
        return termination;
    }

    TcFailures failures() {
        return failures;
    }

    TcHistory recorder() {
        return history;
    }

    /** The live transaction with that id, or null. */
    TcTxnImpl live(long id) {
        return txns.get(id);
    }

    /** The live transactions (a copy, in table order). */
    List<TcTxnImpl> live() {
        return List.copyOf(txns.values());
    }

    /** A new transaction joins the live set. */
    void admit(TcTxnImpl t) {
        txns.put(t.id(), t);
    }

    /** The transaction ended: it leaves the live set. */
    void forget(TcTxnImpl t) {
        txns.remove(t.id());
    }

    /** A transaction ended: every feature's "transaction ended" point (the reconfiguration protocols may proceed). */
    void ended() {
        features.each(TcFeature::txnEnded);
    }

    /** Sends a framework message. */
    void sendMessage(NodeId to, Object msg) {
        ctx.send(to, msg);
    }

    /** Re-handles a message held back (during clean-up or recovery). */
    void replay(NodeId from, Object msg) {
        handle(from, msg);
    }

    /**
     * Epoch-based commit's counters at this coordinator: {committed epochs, aborted epochs, mean epoch commit
     * latency µs, mean time a transaction was held µs}; null under two-phase commit. Read once the run stopped.
     */
    public double[] epochStats() {
        return features.find(TcEpochs.class).map(TcEpochs::stats).orElse(null);
    }

    /** Epoch-based commit, verification runs: the decision (true = commit) applied here per epoch id; else empty. */
    public Map<Long, Boolean> epochDecisions() {
        return features.find(TcEpochs.class).map(TcEpochs::applied).orElse(Map.of());
    }

    /** Epoch-based commit, verification runs: each prepared epoch's transaction ids here; else empty. */
    public Map<Long, long[]> epochMembers() {
        return features.find(TcEpochs.class).map(TcEpochs::members).orElse(Map.of());
    }

    /** Every feature's counters by name (e.g. {@code epoch.committed}); approximate while running. */
    public Map<String, Long> featureCounters() {
        return features.counters();
    }

    /** The CC parts' counters ({@link org.tebaldi.core.cc.TcPart#counters}) by name; any thread (approximate). */
    public Map<String, Long> ccCounters() {
        return module.counters();
    }

    /**
     * Reads from the nearest replica: reads a backup served for this coordinator, and reads a backup refused that
     * then went to the primary ({@code cluster.replication.reads: nearest}). Any thread (approximate while running).
     */
    public long[] replicaReadCounts() {
        return new long[] {executor.replicaReads().served(), executor.replicaReads().fallbacks()};
    }

    /** Outcomes recorded here (null if recording is off). Read after the node stopped. */
    public HistoryLog history() {
        return history.log();
    }

    /**
     * Streams the recorded outcomes to {@code stream} as node {@code source}, handing them over every
     * {@code periodMicros} µs, instead of keeping them whole (docs/architecture.md, "Verification"). No effect
     * unless the history is recorded; call before the node starts.
     */
    public void streamHistory(org.tebaldi.core.history.HistoryHandOver stream, int source, long periodMicros) {
        history.stream(stream, source, periodMicros);
    }

    @Override
    public void afterHistoryHandOver(Runnable task) {
        history.afterHandOver(task, this);
    }

    /** Streamed checking: hands the log over (the last time once the node stopped). */
    public void handOverHistory() {
        history.handOver();
    }

    /** Commits retracted by recovery rounds (dissertation §4.5.4); recorded with the history only. */
    public java.util.Set<Long> retractedCommits() {
        return history.retracted();
    }

    /**
     * The global epoch id (dissertation §4.5.4) transaction {@code txnId} committed with here, or -1 if unknown
     * (kept only when the history is recorded).
     */
    public long globalEpochOf(long txnId) {
        return features.find(TcDurability.class).map(d -> d.epochOf(txnId)).orElse(-1L);
    }

    /** Whether a recovery round is running (false without durability). */
    public boolean recovering() {
        return features.list().stream().anyMatch(TcFeature::recovering);
    }

    /** One line per live transaction (at most {@code max}): id, type, phase, batch in flight — for diagnostics. */
    public List<String> describeLive(int max) {
        return txns.values().stream().limit(max).map(TcTxnImpl::describe).toList();
    }

    /** Transactions live here. */
    public int liveTransactions() {
        return txns.size();
    }

    // ---- TcServices ----------------------------------------------------------------------------------------

    @Override
    protected ClusterConfig config() {
        return module.config();
    }

    @Override
    public boolean durable() {
        return features.list().stream().anyMatch(TcFeature::durable);
    }

    @Override
    public int tcIndex() {
        return index;
    }

    @Override
    public NodeId coordinatorOf(long txnId) {
        return NodeId.tc(TxnIds.coordinator(txnId));
    }

    @Override
    public TcTxn txn(long id) {
        return txns.get(id);
    }

    @Override
    public int partitionOf(Key key) {
        return config().partitioner().partition(key);
    }
}
