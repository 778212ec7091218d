package org.tebaldi.server.tc;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.proc.ProcRun;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.AbortTxn;
import org.tebaldi.server.msg.BeginTxn;
import org.tebaldi.server.msg.CallProc;
import org.tebaldi.server.msg.CommitTxn;
import org.tebaldi.server.msg.OutcomeQuery;
import org.tebaldi.server.msg.ExecReplies;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.TxnEnded;
import org.tebaldi.server.msg.TxnHeader;
import org.tebaldi.server.msg.TxnOp;
import org.tebaldi.server.msg.TxnOps;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Handlers;
import org.tebaldi.server.node.NodeBase;

/**
 * A transaction coordinator (dissertation §4.3.1, §4.5.1; docs/architecture.md, "A phase's path through the tree"):
 * the client protocol (begin, operations, commit, abort, stored procedures), the live transactions and their
 * failures. The CC passes over each transaction's path run in its {@link TcModule}; operations, whatever the
 * execution mode ({@link InteractiveDriver}, {@link ProcedureDriver}), go out through the {@link OpExecutor}, one
 * request per involved data server; validation and two-phase commit are {@link TcCommit}'s. Durability
 * ({@link TcDurability}) and reconfiguration ({@link Reconfiguring}) see every message first.
 */
public final class TransactionCoordinator extends NodeBase implements TcServices {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);

    private final int index;
    private final TcModule module = new TcModule(this);
    private final OpExecutor executor = new OpExecutor(this);
    private final TcCommit commits = new TcCommit(this);
    private final Long2ObjectOpenHashMap<TcTxnImpl> txns =
            new Long2ObjectOpenHashMap<>();
    private HistoryLog history;
    private org.tebaldi.core.history.HistoryHandOver historyStream;
    private int historySource;
    private long historyPeriodMicros;
    private final BitSet deadDs = new BitSet();
    private final Reconfiguring reconfig = new Reconfiguring();
    private final TcDurability durability;
    private final Handlers handlers = new Handlers();
    private long replyTimeoutMicros;
    private final TcDecisions decisions = new TcDecisions(this);
    private final TcEpochs epochs;
    private long seq;

    public TransactionCoordinator(int index, ClusterConfig cfg) {
        this.index = index;
        this.history = cfg.recordHistory() ? new HistoryLog() : null;
        this.durability = cfg.durability().enabled()
                ? new TcDurability(this, cfg.dataServers(), cfg.durability().sync(), cfg.recordHistory()) : null;
        module.install(cfg);
        this.epochs = cfg.commitProtocol() == org.tebaldi.server.node.CommitProtocol.EPOCH ? new TcEpochs(this, cfg.recordHistory()) : null;
        if (epochs != null) {
            handlers.on(org.tebaldi.server.epoch.EpochMessages.Prepare.class, epochs::onPrepare)
                    .on(org.tebaldi.server.epoch.EpochMessages.Decision.class, epochs::onDecision);
        }
        handlers.on(NodeDown.class, (from, d) -> onNodeDown(d))
                .on(ExecReply.class, (from, r) -> executor.onReply(r))
                .on(org.tebaldi.server.replica.ReplicaMessages.ReadReply.class,
                        (from, r) -> executor.replicaReads().onReply(r))
                .on(ExecReplies.class, (from, rs) -> {
                    for (ExecReply r : rs.replies()) {
                        executor.onReply(r);
                    }
                })
                .on(ValidateReply.class, (from, r) -> commits.onReply(r))
                .on(CallProc.class, this::onCall)
                .on(BeginTxn.class, (from, m) -> begin(from, m.reqId(), m.typeId(), m.inputs(), m.priority(), false))
                .on(TxnOp.class, (from, m) -> onOps(from, m.txnId(), List.of(m.op()), m.opId(), true))
                .on(TxnOps.class, (from, m) -> onOps(from, m.txnId(), List.of(m.ops()), m.firstOpId(), false))
                .on(CommitTxn.class, (from, m) -> {
                    TcTxnImpl t = txns.get(m.txnId());
                    if (t == null) {
                        ended(from, m.txnId(), AbortReason.error("transaction already ended"));
                    } else {
                        commits.request(t);
                    }
                })
                .on(AbortTxn.class, (from, m) -> {
                    TcTxnImpl t = txns.get(m.txnId());
                    if (t == null) {
                        ended(from, m.txnId(), AbortReason.error("transaction already ended"));
                    } else {
                        commits.abort(t, AbortReason.error("user abort"));
                    }
                })
                .on(OutcomeQuery.class, (from, q) -> decisions.answer(from, q.txnId(), txns.containsKey(q.txnId())))
                .on(CcEnvelope.class, module::onEnvelope);
    }

    /**
     * Makes this coordinator abort a transaction whose data-server requests have had no reply for
     * {@code micros} µs (a lost message, or a server that hangs without leaving ZooKeeper), checked every quarter
     * of the timeout (at least 100 ms). 0 (the default, and the only sensible value under simulation) disables it.
     * Call before the node starts.
     */
    public void setReplyTimeout(long micros) {
        this.replyTimeoutMicros = micros;
    }

    /**
     * Makes this coordinator's transaction ids start above {@code seq} — a coordinator restarted together with data
     * servers that recover logged transactions must not reuse their ids. Call before the node starts.
     */
    public void startIdsAbove(long seq) {
        this.seq = Math.max(this.seq, seq);
    }

    @Override
    protected void started() {
        if (historyStream != null) {
            Runnable[] tick = new Runnable[1];
            tick[0] = () -> {
                handOverHistory();
                schedule(historyPeriodMicros, tick[0]);
            };
            schedule(historyPeriodMicros, tick[0]);
        }
        if (config().profileFlushMicros() > 0) {
            enableProfiling(new NodeId(Role.MONITOR, 0), config().profileFlushMicros());
        }
        if (replyTimeoutMicros > 0 || config().txnTimeoutMicros() > 0) {
            sweep();
        }
    }

    @Override
    protected void handle(NodeId from, Object msg) {
        if (durability != null && durability.intercept(from, msg)) {
            return;
        }
        if (reconfig.intercept(this, from, msg)) {
            return;
        }
        if (!handlers.dispatch(from, msg)) {
            LOG.warn("tc{}: unexpected message {} from {}", index, msg, from);
        }
    }

    // ---- the client protocol -------------------------------------------------------------------------------

    private void onCall(NodeId from, CallProc m) {
        TxnType type = database().type(m.typeId());
        if (!type.isProcedure()) {
            sendMessage(from, new TxnEnded(m.reqId(), 0, false, type.name() + " is not a stored procedure", false,
                    Map.of()));
            return;
        }
        begin(from, m.reqId(), m.typeId(), m.inputs(), m.priority(), true);
    }

    private void begin(NodeId client, long reqId, int typeId, Inputs inputs, long priority, boolean proc) {
        ClusterConfig cfg = config();
        TxnType type = cfg.db().type(typeId);
        CcNode leaf = cfg.leafOf(typeId);
        OpDriver driver;
        long instance;
        try {
            instance = leaf.instanceBy() == null ? 0 : instanceValue(inputs.get(type.param(leaf.instanceBy())));
            if (proc) {
                Procedure p = module.procedure(typeId);
                ProcRun run = cfg.opBatching() ? p.startBatched(inputs) : p.start(inputs);
                driver = new ProcedureDriver(this, run, cfg.opBatching());
            } else {
                driver = new InteractiveDriver(this);
            }
        } catch (RuntimeException e) {
            sendMessage(client, new TxnEnded(reqId, 0, false, "bad inputs for " + type.name() + ": " + e.getMessage(),
                    false, Map.of()));
            return;
        }
        long id = TxnIds.make(index, ++seq);
        CcNode[] path = cfg.tree().path(leaf.id());
        TcTxnImpl t = new TcTxnImpl(new TxnHeader(id, typeId, leaf.id(), instance, priority), type, inputs, path,
                client, reqId, driver, cfg.dataServers());
        t.begunAt = nowMicros();
        txns.put(id, t);
        module.start(t, () -> {
            if (t.status == TcTxnImpl.Status.STARTING) {
                t.status = TcTxnImpl.Status.ACTIVE;
                t.driver.started(t);
            }
        }, why -> commits.abort(t, why));
    }

    private static long instanceValue(Object v) {
        if (v instanceof Number n) {
            return n.longValue();
        }
        return v == null ? 0 : v.hashCode();
    }

    /** Operations from an interactive client. */
    private void onOps(NodeId from, long txnId, List<org.tebaldi.core.txn.Op> ops, int firstOpId, boolean single) {
        TcTxnImpl t = txns.get(txnId);
        if (t == null || t.status != TcTxnImpl.Status.ACTIVE || t.commitRequested
                || !(t.driver instanceof InteractiveDriver d)) {
            ended(from, txnId, AbortReason.error("operations after the transaction ended or asked to commit"));
            return;
        }
        d.submit(t, ops, firstOpId, single);
    }

    private void ended(NodeId client, long txnId, AbortReason why) {
        sendMessage(client, new TxnEnded(0, txnId, false, why.message(), why.retryable(), Map.of()));
    }

    // ---- failures ------------------------------------------------------------------------------------------

    /**
     * Ends transactions stuck by a lost message or a failed service: one awaiting data-server replies for longer
     * than the reply timeout aborts non-retryably (process mode: the server may be gone); one begun longer ago than
     * the transaction timeout ({@link ClusterConfig#withTxnTimeout}) aborts retryably. Forgets old commit decisions,
     * and sends again the durable notices their clients have not acknowledged ({@link TcDurability}).
     */
    private void sweep() {
        long now = nowMicros();
        long txnTimeout = config().txnTimeoutMicros();
        List<TcTxnImpl> late = new ArrayList<>();
        List<TcTxnImpl> old = new ArrayList<>();
        for (TcTxnImpl t : txns.values()) {
            if (replyTimeoutMicros > 0 && t.awaiting > 0 && now - t.sentAt > replyTimeoutMicros) {
                late.add(t);
            } else if (txnTimeout > 0 && now - t.begunAt > txnTimeout && t.status != TcTxnImpl.Status.HELD) {
                old.add(t);
            }
        }
        for (TcTxnImpl t : late) {
            commits.abort(t, AbortReason.error("no reply from data server(s) " + Arrays.toString(t.participants())
                    + " within " + replyTimeoutMicros / 1000 + " ms"));
        }
        for (TcTxnImpl t : old) {
            commits.abort(t, new AbortReason("timed out: not decided within " + txnTimeout / 1000.0
                    + " ms (a message was lost or a service failed)", true));
        }
        decisions.prune(now);
        if (durability != null && txnTimeout > 0) {
            durability.resendUnacknowledged(now);
        }
        long period = Math.min(replyTimeoutMicros > 0 ? Math.max(100_000, replyTimeoutMicros / 4) : Long.MAX_VALUE,
                txnTimeout > 0 ? Math.max(1_000, txnTimeout / 4) : Long.MAX_VALUE);
        schedule(period, this::sweep);
    }

    /** The record of commit decisions kept for outcome queries (termination protocol). */
    TcDecisions decisions() {
        return decisions;
    }

    /**
     * A node failed (process mode, docs/architecture.md "Failures"): transactions with a participant on a failed data
     * server abort with a clear, non-retryable error (their partition is unavailable), and so do transactions of a
     * failed client endpoint; later operations on that server abort at once.
     */
    private void onNodeDown(NodeDown d) {
        if (d.node().role() == Role.TS || d.node().role() == Role.BATCH) {
            serviceDown(d);
            return;
        }
        List<TcTxnImpl> doomed = new ArrayList<>();
        for (TcTxnImpl t : txns.values()) {
            boolean hit = d.node().role() == Role.CLIENT ? t.client.equals(d.node())
                    : d.node().role() == Role.DS && Arrays.stream(t.participants()).anyMatch(p -> p == d.node().index());
            if (hit) {
                doomed.add(t);
            }
        }
        if (d.node().role() == Role.DS) {
            deadDs.set(d.node().index());
        }
        String why = (d.node().role() == Role.DS ? "data server " : "client ") + d.node() + " failed (" + d.reason()
                + ")";
        for (TcTxnImpl t : doomed) {
            commits.abort(t, AbortReason.error(why));
        }
        if (!doomed.isEmpty()) {
            LOG.warn("tc{}: aborted {} transaction(s): {}", index, doomed.size(), why);
        }
    }

    /**
     * A singleton service failed and a new term will take over under the same address: its state and the replies
     * it owed are lost, so every live transaction aborts (retryably), and every CC part hears of it
     * ({@link org.tebaldi.core.cc.TcPart#serviceFailed}: no batch of the old term takes new members). The parts
     * are kept, not rebuilt: their clients' request ids go on, so a late reply never matches a new request.
     */
    private void serviceDown(NodeDown d) {
        int n = txns.size();
        abortAll("the " + d.node().role().cli() + " service " + d.node() + " failed (" + d.reason() + ")");
        module.parts().forEach(p -> p.serviceFailed(d.node()));
        LOG.warn("tc{}: service {} failed: aborted {} transaction(s)", index, d.node(), n);
    }

    /**
     * Drops what the CC parts keep of data-server state across transactions (Sundial's cache of remote reads), as a
     * recovery round does: the next reads go to the data servers. For a check that needs reads of the latest
     * committed state — a cached read is serializable, yet may be stale in real time (Sundial §4). Call on this
     * node's thread, or in the simulation between events.
     */
    public void dropCaches() {
        module.parts().forEach(p -> p.storageRecovered());
    }

    // ---- what the coordinator's helpers share (package-private) --------------------------------------------

    TcModule module() {
        return module;
    }

    OpExecutor executor() {
        return executor;
    }

    /** Epoch-based commit's state, or null under two-phase commit. */
    TcEpochs epochs() {
        return epochs;
    }

    /**
     * Epoch-based commit's counters at this coordinator: {committed epochs, aborted epochs, mean epoch commit
     * latency µs (prepare to commit decision), mean time a transaction was held µs (decision to release)}; null under
     * two-phase commit. Read once the run stopped.
     */
    public double[] epochStats() {
        return epochs == null ? null : new double[] {epochs.committedEpochs(), epochs.abortedEpochs(),
                epochs.meanEpochCommitMicros(), epochs.meanHeldMicros()};
    }

    /**
     * Epoch-based commit, verification runs: the decision (true = commit) this coordinator applied to each epoch id
     * it held transactions of or heard a decision for; empty unless the history is recorded or under 2PC.
     */
    public java.util.Map<Long, Boolean> epochDecisions() {
        return epochs == null ? java.util.Map.of() : epochs.applied();
    }

    /** Epoch-based commit, verification runs: each prepared epoch's transaction ids here; else empty. */
    public java.util.Map<Long, long[]> epochMembers() {
        return epochs == null ? java.util.Map.of() : epochs.members();
    }

    TcCommit commits() {
        return commits;
    }

    TcDurability durability() {
        return durability;
    }

    /** The live transaction with that id, or null. */
    TcTxnImpl live(long id) {
        return txns.get(id);
    }

    /** The transaction ended: it leaves the live set. */
    void forget(TcTxnImpl t) {
        txns.remove(t.id());
    }

    /** A transaction ended: the reconfiguration protocols may proceed. */
    void ended() {
        reconfig.ended(this);
    }

    boolean dataServerDown(int ds) {
        return deadDs.get(ds);
    }

    @Override
    public boolean durable() {
        return durability != null;
    }

    /**
     * The CC parts' counters for the run report ({@link org.tebaldi.core.cc.TcPart#counters}), summed by name; may be
     * read from another thread while the node runs (approximate then).
     */
    public java.util.Map<String, Long> ccCounters() {
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
        return history;
    }

    /**
     * Streams the recorded outcomes to {@code stream} as node {@code source}, handing them over every
     * {@code periodMicros} µs, instead of keeping them whole (docs/architecture.md, "Verification"). No effect
     * unless the history is recorded; call before the node starts.
     */
    public void streamHistory(org.tebaldi.core.history.HistoryHandOver stream, int source, long periodMicros) {
        if (history != null) {
            this.historyStream = stream;
            this.historySource = source;
            this.historyPeriodMicros = periodMicros;
        }
    }

    /** Streamed checking: hands the log over (the last time once the node stopped). */
    public void handOverHistory() {
        if (historyStream != null) {
            historyStream.handOver(historySource, () -> {
                HistoryLog l = history;
                history = new HistoryLog();
                return l;
            });
        }
    }

    /** Sends a framework message. */
    void sendMessage(NodeId to, Object msg) {
        ctx.send(to, msg);
    }

    /** Re-handles a message held back (during clean-up or recovery). */
    void replay(NodeId from, Object msg) {
        handle(from, msg);
    }

    // ---- reconfiguration and recovery (partial restart §5.5.1, online update §5.5.2, recovery §4.5.4) -------

    /** Data servers of the cluster. */
    int dataServers() {
        return config().dataServers();
    }

    /** Coordinators of the cluster. */
    int coordinators() {
        return config().coordinators();
    }

    /** The live transactions (for the clean-up phase's force-abort). */
    List<TcTxnImpl> live() {
        return List.copyOf(txns.values());
    }

    /** Aborts every live transaction (a recovery round began). */
    void abortAll(String why) {
        for (TcTxnImpl t : live()) {
            commits.abort(t, AbortReason.conflict(why));
        }
    }

    /** Aborts a live transaction (force-abort during clean-up). */
    void forceAbort(TcTxnImpl t) {
        commits.abort(t, AbortReason.conflict("aborted to reconfigure the CC tree"));
    }

    /** Data server {@code ds} is alive again (it reported an epoch after a recovery round). */
    void revive(int ds) {
        deadDs.clear(ds);
    }

    /** A recovery round ended: every data server serves again. */
    void reviveAll() {
        deadDs.clear();
    }

    /**
     * Committed transactions lost in recovery (dissertation §4.5.4: their epoch was not persisted everywhere): their
     * recorded outcome becomes an abort — none of their writes survived.
     */
    void retractCommits(java.util.Set<Long> lost) {
        if (history != null) {
            retracted.addAll(lost);
            history.outcomes().replaceAll(o -> lost.contains(o.txn())
                    ? new HistoryLog.Outcome(o.txn(), false, o.type()) : o);
        }
    }

    private final java.util.Set<Long> retracted = new java.util.HashSet<>();

    /** Commits retracted by recovery rounds ({@link #retractCommits}); recorded with the history only. */
    public java.util.Set<Long> retractedCommits() {
        return java.util.Collections.unmodifiableSet(retracted);
    }

    /** Rebuilds the CC module for another tree (prepare phase); storage is untouched. */
    void reinstall(org.tebaldi.core.tree.CcTree tree) {
        module.install(config().withTree(tree));
    }

    /** Online update: switches to a tree derived from the current one with node ids kept ({@link TcModule}). */
    void update(org.tebaldi.core.tree.CcTree tree) {
        module.update(config().withTree(tree));
    }

    /** Live transactions whose leaf is in the subtree rooted at node {@code subtree} of the current tree. */
    int liveIn(int subtree) {
        CcNode root = config().tree().node(subtree);
        return root == null ? 0 : (int) txns.values().stream().filter(t -> root.contains(t.leaf())).count();
    }

    /** Committed transactions still waiting for their durable notification (0 without durability). */
    public int awaitingDurability() {
        return durability == null ? 0 : durability.pendingCount();
    }

    /**
     * The global epoch id (dissertation §4.5.4) transaction {@code txnId} committed with here, or -1 if unknown
     * (kept only when the history is recorded).
     */
    public long globalEpochOf(long txnId) {
        return durability == null ? -1 : durability.epochOf(txnId);
    }

    /** Whether a recovery round is running (false without durability). */
    public boolean recovering() {
        return durability != null && durability.recovering();
    }

    /** One line per live transaction (at most {@code max}): id, type, phase, batch in flight — for diagnostics. */
    public List<String> describeLive(int max) {
        return txns.values().stream().limit(max).map(t -> t + " " + t.status + (t.commitRequested ? " commit-requested"
                : "") + (t.batch == null ? "" : " batch@" + t.batch.firstOpId + "x" + t.batch.ops.size()) + " awaiting=" + t.awaiting
                + " votesLeft="
                + t.votes + " participants=" + Arrays.toString(t.participants())).toList();
    }

    /** Transactions currently running here. */
    public int liveTransactions() {
        return txns.size();
    }

    // ---- TcServices ----------------------------------------------------------------------------------------

    @Override
    protected ClusterConfig config() {
        return module.config();
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
