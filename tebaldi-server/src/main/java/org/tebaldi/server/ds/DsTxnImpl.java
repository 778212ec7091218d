package org.tebaldi.server.ds;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.tebaldi.core.cc.CcReport;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.storage.VersionReader;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.server.msg.LevelReport;
import org.tebaldi.server.msg.TxnHeader;
import org.tebaldi.server.node.PathTxn;

/** A transaction's state at one data server. Owned by the data-server actor. */
final class DsTxnImpl extends PathTxn implements DsTxn, org.tebaldi.core.cc.EarlyRelease, VersionReader {
    /** Where the transaction stands here: running, or its commit or abort applied here. */
    enum Status { LIVE, COMMITTED, ABORTED }

    /** One version this transaction installed, with its key and chain (for commit, abort, GC and the log). */
    record Written(org.tebaldi.core.model.Key key, VersionChain chain, Version version) {
    }

    private Object[] meta;
    final List<Dependency> deps = new ArrayList<>(0);
    int reportedDeps;
    final List<DsTxnImpl> readFrom = new ArrayList<>(0);
    private List<LevelReport> reports;
    final List<Written> writes = new ArrayList<>(2);
    private List<Consumer<Boolean>> finishWaiters;
    private Status status = Status.LIVE;
    /** A DS part released locks of it here before its vote ({@link #releasedBeforeVote}, {@link org.tebaldi.core.cc.EarlyRelease}). */
    boolean releasedBeforeVote;
    /** Why the transaction cannot commit here any more ({@link #doom}), or null. */
    String doomed;
    /** Why it aborted here, once {@link Status#ABORTED}. */
    AbortReason abortReason;
    /** The batch being executed (one operation after the other), or null. */
    BatchRun batch;
    /** GC epoch at this server (dissertation §4.5.3). */
    long gcEpoch;
    /** The server's incarnation when this transaction arrived ({@link DsTxns#incarnation}). */
    int incarnation;
    /** When this server last heard from the coordinator about it, µs of its clock (termination protocol). */
    long heardAt;
    /** When this server last asked the coordinator for the outcome (an answer is on its way unless lost); -1: never. */
    long askedAt = -1;
    /** Durability: GCP epoch of this transaction's precommit log here, or -1 if none was written. */
    long logEpoch = -1;
    /**
     * Durability: a write operation reached this server for this transaction (it counts as a writing participant,
     * as its coordinator counts it, even if the write installed no version — an update of an absent row).
     */
    boolean writeOps;
    /** Durability: reads recorded here, for the precommit log when the history is recorded (else null). */
    List<org.tebaldi.server.durability.LogRecord.Read> loggedReads;
    /** The history recorded a read of this transaction here (streamed checking logs its abort here too). */
    boolean readLogged;

    DsTxnImpl(TxnHeader header, CcNode[] path) {
        super(header, path);
    }

    @Override
    public boolean finished() {
        return status != Status.LIVE;
    }

    @Override
    public boolean committed() {
        return status == Status.COMMITTED;
    }

    @Override
    public List<Dependency> dependencies() {
        return deps;
    }

    @Override
    public <M> M meta(int level, Class<M> type) {
        Object m = meta == null ? null : meta[level];
        return type.isInstance(m) ? type.cast(m) : null;
    }

    /** The metadata of a request; a request without any keeps the previous one's. */
    void setMeta(Object[] m) {
        if (m != null) {
            meta = m;
        }
    }

    @Override
    public void report(int level, CcReport report) {
        if (reports == null) {
            reports = new ArrayList<>(2);
        }
        reports.add(new LevelReport(level, report));
    }

    /** Reports not yet sent, or null; clears them. */
    LevelReport[] takeReports() {
        if (reports == null || reports.isEmpty()) {
            return null;
        }
        LevelReport[] r = reports.toArray(new LevelReport[0]);
        reports.clear();
        return r;
    }

    /** Marks that a DS part released locks of it here before its vote (its vote then waits for the backups). */
    @Override // EarlyRelease
    public void releasedBeforeVote() {
        releasedBeforeVote = true;
    }

    /** Dooms the transaction (a part's verdict, or the framework's: an aborted or intermediate read). */
    @Override
    public void doom(String why) {
        if (doomed == null) {
            doomed = why;
        }
    }

    /** This transaction's version in {@code chain}, or null — its write set is short, the chain may be long. */
    Version ownVersion(VersionChain chain) {
        for (int i = writes.size() - 1; i >= 0; i--) {
            Written w = writes.get(i);
            if (w.chain() == chain) {
                return w.version();
            }
        }
        return null;
    }

    /** Registers a callback for this transaction's finish; returns false if already finished. */
    boolean onFinish(Consumer<Boolean> c) {
        if (finished()) {
            return false;
        }
        if (finishWaiters == null) {
            finishWaiters = new ArrayList<>(2);
        }
        finishWaiters.add(c);
        return true;
    }

    /**
     * The outcome was applied here: the references to other transactions (dependencies, writers read from) and the
     * request in progress are dropped, since nothing reads them once the transaction finished. A finished
     * transaction may still be referenced (a version's reader, a part's state), and its references would otherwise
     * keep a chain of earlier transactions reachable — every transaction since the start on a hot key.
     */
    void released() {
        deps.clear();
        reportedDeps = 0;
        readFrom.clear();
        batch = null;
    }

    /** Marks the outcome and returns the callbacks to run. */
    List<Consumer<Boolean>> finish(boolean commit) {
        status = commit ? Status.COMMITTED : Status.ABORTED;
        List<Consumer<Boolean>> w = finishWaiters;
        finishWaiters = null;
        return w == null ? List.of() : w;
    }

    @Override
    public String toString() {
        return org.tebaldi.core.txn.TxnIds.format(id());
    }

    /** An {@link org.tebaldi.server.msg.ExecBatch} in progress: who sent it, the next operation, replies so far. */
    static final class BatchRun {
        final org.tebaldi.core.runtime.NodeId from;
        final org.tebaldi.server.msg.ExecBatch request;
        final List<org.tebaldi.server.msg.ExecReply> replies = new ArrayList<>();
        int current;

        BatchRun(org.tebaldi.core.runtime.NodeId from, org.tebaldi.server.msg.ExecBatch request) {
            this.from = from;
            this.request = request;
        }
    }
}
