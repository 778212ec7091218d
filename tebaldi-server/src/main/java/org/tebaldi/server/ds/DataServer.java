package org.tebaldi.server.ds;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.storage.MultiVersionStore;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecReplies;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.TxnHeader;
import org.tebaldi.server.msg.ValidateRequest;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.LevelPass;
import org.tebaldi.server.node.NodeBase;

/**
 * A data server (dissertation §4.5.1): holds one partition in its {@link MultiVersionStore} and runs the DS part
 * of every CC node of the tree. Each phase request from a TC is answered with one reply after all levels ran.
 * Framework guarantees on top of the mechanisms: a transaction that read an uncommitted version cannot pass
 * validation here before that version's writer finished, and fails if the writer aborted (no aborted reads);
 * a reader of a version its writer later overwrote fails (no intermediate reads).
 */
public final class DataServer extends NodeBase implements DsServices {
    private static final Logger LOG = LoggerFactory.getLogger(DataServer.class);

    private final int index;
    private ClusterConfig cfg;
    private MultiVersionStore store;
    private DsPart[] parts;
    private final DsReconfig reconfig = new DsReconfig();
    /** Chains written since the last partial restart (the only ones with CC metadata to re-base). */
    private final List<VersionChain> writtenChains = new ArrayList<>();
    private final HashMap<Long, DsTxnImpl> txns = new HashMap<>();
    private HistoryLog history;
    private final BitSet deadTcs = new BitSet();
    private final GcEpochs gc;
    /** Versions installed and removed so far (written by this actor, read by samplers on other threads). */
    private volatile long versionsAdded;
    private volatile long versionsRemoved;
    private DsDurability dur;
    private DsRecovery recovery;

    /** @param expectedKeys capacity hint for the store */
    public DataServer(int index, ClusterConfig cfg, int expectedKeys) {
        this.index = index;
        this.cfg = cfg;
        this.store = new MultiVersionStore(expectedKeys);
        this.history = cfg.recordHistory() ? new HistoryLog() : null;
        this.gc = new GcEpochs(this, cfg.gcEpochMicros(), cfg.recordHistory());
        install(cfg);
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
        org.tebaldi.server.durability.DurabilityOptions d = cfg.durability();
        if (!d.enabled() || dur != null) {
            return;
        }
        org.tebaldi.server.durability.LogStore.Factory f = d.stores() != null ? d.stores()
                : org.tebaldi.server.durability.RocksLogStore.factory(d);
        dur = new DsDurability(this, d, f.open(index, cfg.db().catalog(), toSelf));
        dur.recovering = dur.store.hadData();
        recovery = new DsRecovery(this, dur);
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
    }

    private void install(ClusterConfig c) {
        this.cfg = c;
        this.parts = new DsPart[c.tree().idBound()];
        for (CcNode n : c.tree().nodes()) {
            if (n.hasParts()) {
                parts[n.id()] = c.mechanism(n).dsPart(n, this);
            }
        }
    }

    /**
     * Prepare phase of the partial restart (dissertation §5.5.1), once every coordinator drained: a new CC module
     * for {@code tree}, and the root CC's state rebuilt from the storage module — every committed version re-based
     * as if a virtual recovery transaction beneath the root wrote it (§4.5.4). Only chains written since the last
     * re-basing hold CC metadata (loaded versions have none), so only those are visited.
     */
    void restartCc(CcTree tree) {
        if (!txns.isEmpty()) {
            LOG.error("ds{}: {} transactions left when preparing a reconfiguration: {}", index, txns.size(),
                    describeLive(5));
            if (dur != null) {
                txns.values().forEach(dur::forget);
            }
            txns.clear();
        }
        install(cfg.withTree(tree));
        gc.reset();
        for (VersionChain chain : writtenChains) {
            chain.rebaseAll();
        }
        writtenChains.clear();
    }

    /** A transaction added a version to {@code chain}: remember it for the next re-basing. */
    void written(VersionChain chain) {
        if (chain.markWritten()) {
            writtenChains.add(chain);
        }
    }

    /**
     * Online update (dissertation §5.5.2): switches to a tree derived from the current one with node ids kept.
     * Parts of nodes still present and not retired stay (rebound to their node in the new tree, keeping their
     * locks and waits); new nodes get new parts; retired nodes lose theirs.
     */
    void updateCc(CcTree tree) {
        ClusterConfig c = cfg.withTree(tree);
        this.cfg = c;
        DsPart[] next = new DsPart[tree.idBound()];
        for (CcNode n : tree.nodes()) {
            if (!n.hasParts()) {
                continue;
            }
            DsPart old = n.id() < parts.length ? parts[n.id()] : null;
            if (old != null) {
                old.rebind(n);
                next[n.id()] = old;
            } else {
                next[n.id()] = c.mechanism(n).dsPart(n, this);
            }
        }
        this.parts = next;
        gc.partsChanged();
    }

    /** The DS parts of the current tree (for GC confirmations). */
    List<DsPart> liveParts() {
        List<DsPart> l = new ArrayList<>(parts.length);
        for (DsPart p : parts) {
            if (p != null) {
                l.add(p);
            }
        }
        return l;
    }

    /** Data servers of the cluster. */
    int dataServers() {
        return cfg.dataServers();
    }

    /** Recovery began: every transaction and the whole in-memory state go; the store is rebuilt from the log. */
    void dropEverything() {
        versionsRemoved = versionsAdded - gc.pruned();
        writtenChains.clear();
        txns.clear();
        store = new MultiVersionStore(Math.max(1024, store.keyCount()));
        gc.reset();
        gc.clearOrders();
        install(cfg);
    }

    /** Recovery, step 3: a fresh CC module over the recovered, re-based versions. */
    void rebuildCc() {
        install(cfg);
        gc.reset();
    }

    /** Recovery finished: serve again. */
    void resumeAfterRecovery() {
        deadTcs.clear();
    }

    boolean recordsHistory() {
        return history != null;
    }

    /** A new, empty history log (recovery rebuilds the survivors' history); returns it. */
    HistoryLog freshHistory() {
        history = new HistoryLog();
        return history;
    }

    void setPrunedOrder(Key key, long[] writers) {
        gc.setPrunedOrder(key, writers);
    }

    String typeName(int typeId) {
        return cfg.db().type(typeId).name();
    }

    /** Coordinators of the cluster. */
    int coordinators() {
        return cfg.coordinators();
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
        if (cfg.profileFlushMicros() > 0) {
            enableProfiling(new NodeId(Role.MONITOR, 0), cfg.profileFlushMicros());
        }
        if (dur != null) {
            dur.flushLoads();
            dur.start();
            if (dur.store.hadData()) {
                recovery.request();
            }
        }
    }

    @Override
    protected void handle(NodeId from, Object msg) {
        if (dur != null && durabilityMessage(from, msg)) {
            return;
        }
        if (msg instanceof NodeDown d) {
            onNodeDown(d);
        } else if (msg instanceof ExecRequest r) {
            onExec(from, r);
        } else if (msg instanceof ExecBatch b) {
            onExecBatch(from, b);
        } else if (msg instanceof ValidateRequest r) {
            onValidate(from, r);
        } else if (msg instanceof CommitRequest r) {
            onCommit(r);
        } else if (msg instanceof AbortRequest r) {
            onAbort(r);
        } else if (msg instanceof CcEnvelope e) {
            if (e.ccNode() >= 0 && e.ccNode() < parts.length && parts[e.ccNode()] != null) {
                parts[e.ccNode()].onMessage(from, e.payload());
            }
        } else if (reconfig.intercept(this, from, msg)) {
            return;
        } else {
            LOG.warn("ds{}: unexpected message {} from {}", index, msg, from);
        }
    }

    /** Durability and recovery messages, and requests refused while recovering; true if handled. */
    private boolean durabilityMessage(NodeId from, Object msg) {
        if (msg instanceof org.tebaldi.server.durability.LogStore.Callback c) {
            c.task().run();
            return true;
        }
        if (msg instanceof org.tebaldi.server.msg.Durable.Persisted p) {
            dur.peerPersisted(p.epoch());
            return true;
        }
        if (recovery.intercept(from, msg)) {
            return true;
        }
        if (!dur.recovering) {
            return false;
        }
        String why = "data server ds" + index + " is recovering from its log";
        if (msg instanceof ExecRequest r) {
            send(from, new ExecReply(r.header().txnId(), r.opId(), false, null, why, true, null, null));
            return true;
        }
        if (msg instanceof ValidateRequest r) {
            send(from, new ValidateReply(r.txnId(), false, why, true, null, null));
            return true;
        }
        if (msg instanceof org.tebaldi.server.msg.CommitRequest || msg instanceof AbortRequest) {
            return true; // its state was dropped; recovery decides from the log
        }
        return false;
    }

    /**
     * A coordinator failed (process mode, DESIGN.md §6): its transactions here can never finish normally, so they
     * abort now, releasing their locks, versions and waits (the DS-side timeout for a dead TC), and the abort is
     * recorded in the history — the coordinator's own record is lost with it. Requests that still arrive from it
     * are ignored. A transaction that had voted yes and whose commit reached another server but not this one is
     * the window two-phase commit without a recovery log cannot close (README, "Failures").
     */
    private void onNodeDown(NodeDown d) {
        if (d.node().role() != Role.TC) {
            return;
        }
        int tc = d.node().index();
        deadTcs.set(tc);
        List<DsTxnImpl> doomed = new ArrayList<>();
        for (DsTxnImpl t : txns.values()) {
            if (TxnIds.coordinator(t.id()) == tc) {
                doomed.add(t);
            }
        }
        for (DsTxnImpl t : doomed) {
            txns.remove(t.id());
            if (!t.finished()) {
                localAbort(t, AbortReason.error("coordinator " + d.node() + " failed (" + d.reason() + ")"));
                if (history != null) {
                    history.outcome(t.id(), false, cfg.db().type(t.typeId()).name());
                }
            }
        }
        if (!doomed.isEmpty()) {
            LOG.warn("ds{}: aborted {} transaction(s) of failed coordinator {}", index, doomed.size(), d.node());
        }
    }

    private void onExec(NodeId from, ExecRequest r) {
        DsTxnImpl t = txnFor(r.header());
        if (t != null) {
            exec(from, t, r);
        }
    }

    /** The transaction of {@code h}, created at its first request here; null if its coordinator is dead. */
    private DsTxnImpl txnFor(TxnHeader h) {
        long id = h.txnId();
        DsTxnImpl t = txns.get(id);
        if (t == null && deadTcs.get(Math.max(0, TxnIds.coordinator(id)))) {
            return null;
        }
        if (t == null) {
            t = new DsTxnImpl(h, cfg.tree().path(h.leaf()));
            t.gcEpoch = gc.join();
            if (dur != null && history != null) {
                t.loggedReads = new ArrayList<>(2);
            }
            txns.put(id, t);
        }
        return t;
    }

    /**
     * A batch of a stored procedure's operations: executed one after the other, each exactly as a single request
     * would be; the replies go back together ({@link #replyExec}).
     */
    private void onExecBatch(NodeId from, ExecBatch b) {
        DsTxnImpl t = txnFor(b.header());
        if (t != null) {
            t.batch = new DsTxnImpl.BatchRun(from, b);
            exec(from, t, b.request(0));
        }
    }

    private void exec(NodeId from, DsTxnImpl t, ExecRequest r) {
        if (t.finished()) {
            replyExec(from, t, r.opId(), false, null, t.abortReason);
            return;
        }
        t.setMeta(r.meta());
        if (r.op().kind().writes()) {
            t.writeOps = true;
        }
        if (t.doomed != null) {
            AbortReason why = AbortReason.conflict(t.doomed);
            localAbort(t, why);
            replyExec(from, t, r.opId(), false, null, why);
            return;
        }
        if (cfg.db().catalog().table(r.op().key().table()).replicated()) {
            readReplicated(from, t, r);
            return;
        }
        new OpExecution(this, t, r, from).start();
    }

    /** Replicated tables are read-only after loading: no conflicts, so no concurrency control. */
    private void readReplicated(NodeId from, DsTxnImpl t, ExecRequest r) {
        Op op = r.op();
        if (op.kind().writes()) {
            AbortReason why = AbortReason.error("table " + cfg.db().catalog().table(op.key().table()).name()
                    + " is replicated and read-only");
            localAbort(t, why);
            replyExec(from, t, r.opId(), false, null, why);
            return;
        }
        Version v = store.find(op.key()) == null ? null : store.find(op.key()).latestCommitted();
        replyExec(from, t, r.opId(), true, v == null ? null : v.value(), null);
    }

    private void onValidate(NodeId from, ValidateRequest r) {
        DsTxnImpl t = txns.get(r.txnId());
        if (t == null) {
            send(from, new ValidateReply(r.txnId(), false, "unknown transaction at ds" + index, true, null, null));
            return;
        }
        if (t.finished()) {
            replyValidate(from, t, t.abortReason);
            return;
        }
        t.setMeta(r.meta());
        int[] pending = {0};
        Runnable next = () -> validateLevels(from, t, r.writers());
        for (DsTxnImpl w : t.readFrom) {
            if (!w.finished()) {
                pending[0]++;
            }
        }
        if (pending[0] == 0) {
            checkReadFrom(t);
            next.run();
            return;
        }
        for (DsTxnImpl w : t.readFrom) {
            if (!w.finished()) {
                awaitFinish(w, committed -> {
                    if (--pending[0] == 0) {
                        checkReadFrom(t);
                        next.run();
                    }
                });
            }
        }
    }

    private static void checkReadFrom(DsTxnImpl t) {
        for (DsTxnImpl w : t.readFrom) {
            if (!w.committed()) {
                t.invalidate("aborted read: read a version of " + w + ", which aborted");
            }
        }
    }

    private void validateLevels(NodeId from, DsTxnImpl t, int writers) {
        if (t.finished()) {
            replyValidate(from, t, t.abortReason);
            return;
        }
        if (t.doomed != null) {
            AbortReason why = AbortReason.conflict(t.doomed);
            localAbort(t, why);
            replyValidate(from, t, why);
            return;
        }
        LevelPass.bottomUp(this, t.path.length, (l, k) -> part(t, l).validate(t, k),
                () -> precommitted(from, t, writers),
                why -> {
                    if (!t.finished()) {
                        localAbort(t, why);
                    }
                    replyValidate(from, t, why);
                });
    }

    /** Every CC passed validation here: the precommit log (with durability), then the vote. */
    private void precommitted(NodeId from, DsTxnImpl t, int writers) {
        if (dur == null || t.finished()) {
            replyValidate(from, t, t.finished() ? t.abortReason : null, 0);
            return;
        }
        dur.precommit(t, writers, epoch -> replyValidate(from, t, t.finished() ? t.abortReason : null, epoch));
    }

    private void onCommit(CommitRequest r) {
        if (dur != null) {
            dur.beforeCommit(r.epoch());
        }
        DsTxnImpl t = txns.remove(r.txnId());
        if (t == null || t.finished()) {
            LOG.error("ds{}: commit of {} which is {}", index, r.txnId(), t == null ? "unknown" : "aborted");
            return;
        }
        for (DsTxnImpl.Written w : t.writes) {
            w.version().commit();
        }
        Object[] meta = r.meta();
        for (int l = t.path.length - 1; l >= 0; l--) {
            part(t, l).commit(t, meta == null ? null : meta[l]);
        }
        if (history != null) {
            history.outcome(t.id(), true, cfg.db().type(t.typeId()).name());
        }
        if (dur != null) {
            dur.committed(t, r.epoch());
        }
        finish(t, true);
    }

    private void onAbort(AbortRequest r) {
        DsTxnImpl t = txns.remove(r.txnId());
        if (t != null && !t.finished()) {
            localAbort(t, AbortReason.conflict("aborted by coordinator"));
        }
    }

    /** Aborts here at once, releasing locks and versions; the record stays until the TC's abort arrives. */
    void localAbort(DsTxnImpl t, AbortReason why) {
        if (!t.writes.isEmpty()) {
            versionsRemoved += t.writes.size();
        }
        for (DsTxnImpl.Written w : t.writes) {
            w.chain().remove(w.version());
            w.version().invalidateReaders("aborted read: writer " + t + " aborted");
        }
        for (int l = t.path.length - 1; l >= 0; l--) {
            part(t, l).abort(t);
        }
        if (dur != null) {
            dur.aborted(t);
        }
        t.abortReason = why;
        finish(t, false);
    }

    private void finish(DsTxnImpl t, boolean committed) {
        gc.leave(t, committed);
        for (Consumer<Boolean> c : t.finish(committed)) {
            later(() -> c.accept(committed));
        }
    }

    void replyExec(NodeId to, DsTxnImpl t, int opId, boolean ok, Row row, AbortReason why) {
        ExecReply reply = new ExecReply(t.id(), opId, ok, row, why == null ? null : why.message(),
                why == null || why.retryable(), newDeps(t), t.takeReports());
        DsTxnImpl.BatchRun b = t.batch;
        if (b == null || b.request.opIds()[b.current] != opId) {
            send(to, reply);
            return;
        }
        b.replies.add(reply);
        if (!ok || b.current + 1 == b.request.ops().length) {
            t.batch = null;
            send(b.from, new ExecReplies(b.replies.toArray(new ExecReply[0])));
            return;
        }
        int next = ++b.current;
        later(() -> exec(b.from, t, b.request.request(next)));
    }

    private void replyValidate(NodeId to, DsTxnImpl t, AbortReason why) {
        replyValidate(to, t, why, 0);
    }

    private void replyValidate(NodeId to, DsTxnImpl t, AbortReason why, long epoch) {
        send(to, new ValidateReply(t.id(), why == null, why == null ? null : why.message(),
                why == null || why.retryable(), newDeps(t), t.takeReports(), epoch));
    }

    private TxnDep[] newDeps(DsTxnImpl t) {
        int n = t.deps.size() - t.reportedDeps;
        if (n <= 0) {
            return null;
        }
        TxnDep[] out = new TxnDep[n];
        for (int i = 0; i < n; i++) {
            DsTxn.Dependency d = t.deps.get(t.reportedDeps + i);
            out[i] = new TxnDep(d.on().id(), d.on().typeId(), d.on().leaf(), d.on().instance(), d.level());
        }
        t.reportedDeps = t.deps.size();
        return out;
    }

    void addDependency(DsTxnImpl t, DsTxn other, int level) {
        if (other == t || other.finished()) {
            return;
        }
        for (DsTxn.Dependency d : t.deps) {
            if (d.on() == other && d.level() == level) {
                return;
            }
        }
        t.deps.add(new DsTxn.Dependency(other, level));
    }

    void recordRead(DsTxnImpl t, Key key, long writer, int seq) {
        if (history != null) {
            history.read(t.id(), key, writer, seq);
            if (t.loggedReads != null) {
                t.loggedReads.add(new org.tebaldi.server.durability.LogRecord.Read(key, writer, seq));
            }
        }
    }

    void recordWrite(DsTxnImpl t, Key key, int seq) {
        if (history != null) {
            history.write(t.id(), key, seq);
        }
    }

    DsPart part(DsTxnImpl t, int level) {
        return parts[t.path[level].id()];
    }

    DsTxnImpl txnImpl(long id) {
        return txns.get(id);
    }

    private void send(NodeId to, Object msg) {
        ctx.send(to, msg);
    }

    /**
     * The recorded history with each written key's final committed version order (writer 0 first when the key
     * did not exist at load time); null if recording is off. Call after the node stopped.
     */
    public HistoryLog history() {
        if (history == null) {
            return null;
        }
        store.forEach((key, chain) -> {
            long[] order = chain.committedOrder();
            long[] pruned = gc.prunedOrder(key);
            if (pruned != null) {
                long[] all = new long[pruned.length + order.length];
                System.arraycopy(pruned, 0, all, 0, pruned.length);
                System.arraycopy(order, 0, all, pruned.length, order.length);
                order = all;
            }
            if (order.length == 1 && order[0] == Version.INITIAL_WRITER) {
                return;
            }
            if (order.length == 0 || order[0] != Version.INITIAL_WRITER) {
                long[] withInit = new long[order.length + 1];
                System.arraycopy(order, 0, withInit, 1, order.length);
                order = withInit;
            }
            history.versionOrder(key, order);
        });
        return history;
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
    public Database database() {
        return cfg.db();
    }

    @Override
    public long waitTimeoutMicros() {
        return cfg.waitTimeoutMicros();
    }

    @Override
    public void addDependency(DsTxn owner, DsTxn on, int level) {
        addDependency((DsTxnImpl) owner, on, level);
    }

    @Override
    public int dsIndex() {
        return index;
    }

    @Override
    public MultiVersionStore store() {
        return store;
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
