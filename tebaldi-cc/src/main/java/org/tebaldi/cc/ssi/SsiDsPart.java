package org.tebaldi.cc.ssi;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DependencyWaits;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.TimedWait;
import org.tebaldi.core.service.TsClient;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;

/**
 * DS part of SSI (dissertation §4.4.3), with batching. The node's "groups" are batches: transactions of one
 * child group sharing a start timestamp; a version remembers its writer's batch (auxiliary stamp) and, once
 * committed, its commit timestamp (stamp). Rules, for versions written inside this node's subtree:
 * <ul>
 *   <li>write: a version of another batch that is uncommitted, or committed after the writer's start, aborts the
 *       writer (first updater wins);</li>
 *   <li>read: waits for prepared writers of other batches (their commit timestamp may fall below the snapshot);
 *       returns the child's proposal if it comes from its own batch, else the latest version committed before
 *       its start timestamp;</li>
 *   <li>anti-dependencies between batches found by a read (a newer version of another batch) or a write (a read
 *       mark of another batch) are reported to the TC, which brings them to the batch manager's pivot check;</li>
 *   <li>validation waits for the dependencies reported by lower levels (so commit timestamps follow the child's
 *       order), then marks the transaction prepared; commit stamps its versions with the commit timestamp.</li>
 * </ul>
 * SSI holds no locks, so a child may make the operation wait after SSI's top-down checks: both checks are
 * repeated when the operation is applied (bottom-up), and a failure then dooms the transaction.
 * Under the root optimization only snapshot reads (read-only groups) and commit stamping remain. As an inner node
 * SSI must commit in its own serialization order, because its parent adopts commit order (§4.2.2): instead of
 * waiting for concurrent transactions to finish before reporting its dependency set, it aborts the acting
 * transaction of every anti-dependency between batches whose source has not committed yet (a reader missing any
 * newer write, a writer overwriting a live reader's read). Then every edge between batches runs forward in commit
 * order, in-batch edges do too (validation waits for the child's dependencies), so no cycle can form and no pivot
 * check is needed (docs/mechanisms.md, SSI as an inner node).
 */
final class SsiDsPart implements DsPart<SsiDsPart.Snapshot> {
    private static final long GC_MICROS = 20_000;
    /**
     * {@link Snapshot#cts} until the commit brings a commit timestamp — forever for a transaction that takes none
     * (read-only under the root optimization, whose reads leave no marks).
     */
    static final long NO_CTS = Long.MAX_VALUE;

    /** A transaction's snapshot here: start timestamp, prepared flag, commit timestamp, versions it wrote. */
    static final class Snapshot {
        long startTs = -1;
        boolean prepared;
        long cts = NO_CTS;
        final List<Version> written = new ArrayList<>(2);
        /** DST, update transaction: the keys it read or wrote here (RW1, RW2). */
        List<org.tebaldi.core.model.Key> keys;
        /** DST, update transaction: its bound here, set when it prepared (its commit timestamp is at least this). */
        long bound = -1;
        /** DST, update transaction: its coordinator's clock at its start ({@link DstStart}), else 0. */
        long started;
        /** GTS, update transaction: the largest commit timestamp seen here when it prepared (its own is above). */
        long seenAtPrepare;
    }

    private CcNode node;
    private final DsServices services;
    private final int level;
    private final int id;
    private final boolean rootOpt;
    private final ReadMarks marks = new ReadMarks();
    private final TsClient ts;
    private final org.tebaldi.core.service.WatermarkWaits gcWaits;
    private boolean gcScheduled;
    /** DST's tuple timestamps, null under GTS. */
    private final DstTuples dst;
    /** DST's read-committed baseline ({@code roReads: read-committed}): read-only reads take the latest committed. */
    private final boolean readCommitted;
    /** DST's staleness bound, µs: snapshots read this far behind their coordinator's clock. */
    private final long stalenessMicros;
    /** Update transactions prepared here and not finished (their commit timestamps are still to come). */
    private final java.util.Set<Snapshot> preparedUpdates = new java.util.HashSet<>();
    /** The largest commit timestamp of a transaction committed here (GTS: issued before anything prepared later). */
    private long maxCts = Long.MIN_VALUE;

    SsiDsPart(CcNode node, DsServices services) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.id = node.id();
        this.rootOpt = SsiMode.rootOptimized(node, services.database());
        this.ts = new TsClient(services, node.id());
        this.gcWaits = new org.tebaldi.core.service.WatermarkWaits(services, ts, GC_MICROS);
        this.dst = SsiMode.dst(node, services.database())
                ? new DstTuples(services, node.durationOption(SsiMode.STALENESS, 0)) : null;
        this.readCommitted = dst != null && SsiMode.readCommitted(node);
        this.stalenessMicros = node.durationOption(SsiMode.STALENESS, 0);
    }

    @Override
    public Snapshot newState(DsTxn t) {
        return new Snapshot();
    }

    @Override
    public void onRequest(DsTxn t, Snapshot st) {
        DstStart d = t.meta(level, DstStart.class);
        if (d != null) {
            st.started = d.lowerBound();
        }
        SsiMeta m = t.meta(level, SsiMeta.class);
        if (m != null) {
            st.startTs = m.startTs();
            if (dst != null && !t.finished()) {
                dst.snapshotLive(st);
            }
        }
    }

    private boolean inSubtree(Version v) {
        return node.contains(v.writerLeaf());
    }

    private boolean sameBatch(DsTxn t, Snapshot st, Version v) {
        if (v.writer() == t.id()) {
            return true;
        }
        if (node.isLeaf() || st.startTs < 0) {
            return false;
        }
        return node.sameGroup(t.id(), t.leaf(), t.instance(), v.writer(), v.writerLeaf(), v.writerInstance())
                && v.auxStamp(id) == st.startTs;
    }

    private boolean prepared(long writer) {
        DsTxn w = services.txn(writer);
        Snapshot st = w == null ? null : w.state(level, Snapshot.class);
        return st != null && st.prepared;
    }

    @Override
    public void execute(DsTxn t, Snapshot st, OpContext op, Continuation k) {
        if (st.startTs < 0) {
            k.proceed(); // update transaction under the root optimization: the child decides
            return;
        }
        if (dst != null) {
            executeSnapshotDst(t, st, op, k);
            return;
        }
        if (st.startTs < ts.termFloor()) {
            k.abort(AbortReason.conflict("ssi: snapshot " + st.startTs + " is from a failed timestamp service's term "
                    + "(versions it needs may be pruned)"));
            return;
        }
        VersionChain chain = op.chain();
        if (!rootOpt && op.op().kind().writes()) {
            for (int i = chain.size() - 1; i >= 0; i--) {
                Version v = chain.get(i);
                if (!inSubtree(v) || sameBatch(t, st, v)) {
                    continue;
                }
                if (!v.committed() || v.stamp(id) > st.startTs) {
                    k.abort(AbortReason.conflict("ssi: write-write conflict on " + op.key() + " with a concurrent"
                            + " transaction of another batch (first updater wins)"));
                    return;
                }
            }
        }
        if (op.op().kind().reads()) {
            for (int i = chain.size() - 1; i >= 0; i--) {
                Version v = chain.get(i);
                if (!v.committed() && inSubtree(v) && !sameBatch(t, st, v) && prepared(v.writer())) {
                    awaitPrepared(t, st, op, k, services.txn(v.writer()));
                    return;
                }
            }
        }
        k.proceed();
    }

    /**
     * A snapshot read under DST (RO2, Fig 9's DEP_READ): claims the key at the read timestamp, so every writer that
     * prepares here later commits above it; then waits for a prepared writer whose bound here does not already put
     * its commit timestamp above the read timestamp (at most the one conflicting writer: 2PL and OCC children let
     * one writer of a key prepare at a time), and reads. Never aborts, except a snapshot already older than the
     * versions pruned here (a coordinator delayed beyond the staleness bound and {@link DstTuples#GC_SLACK_MICROS})
     * or a wait beyond the wait timeout (a failed writer's coordinator): both faults, not conflicts.
     */
    private void executeSnapshotDst(DsTxn t, Snapshot st, OpContext op, Continuation k) {
        if (readCommitted) {
            k.proceed(); // the baseline: no claim, no wait
            return;
        }
        if (dst.belowGcFloor(st.startTs)) {
            k.abort(AbortReason.conflict("ssi/dst: snapshot " + st.startTs + " is older than versions pruned here"));
            return;
        }
        dst.claim(op.key(), st.startTs);
        DsTxn writer = preparedBelow(t, st, op.chain());
        if (writer != null) {
            org.tebaldi.core.cc.ts.SnapshotStats.blocked();
            awaitPrepared(t, st, op, k, writer);
            return;
        }
        org.tebaldi.core.cc.ts.SnapshotStats.read(st.startTs, services.nowMicros());
        k.proceed();
    }

    /** DST: a prepared writer of the chain whose commit timestamp may fall at or below the read timestamp, or null. */
    private DsTxn preparedBelow(DsTxn t, Snapshot st, VersionChain chain) {
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (!v.committed() && inSubtree(v) && !sameBatch(t, st, v) && prepared(v.writer())) {
                DsTxn w = services.txn(v.writer());
                if (w.state(level, Snapshot.class).bound <= st.startTs) {
                    return w;
                }
            }
        }
        return null;
    }

    /** Waits for a prepared writer to finish, then checks again; aborts after the wait timeout. */
    private void awaitPrepared(DsTxn t, Snapshot st, OpContext op, Continuation k, DsTxn writer) {
        TimedWait w = services.awaitOrTimeout(services.waitTimeoutMicros(), () -> k.abort(AbortReason.conflict(
                "ssi: waited " + services.waitTimeoutMicros() / 1000 + " ms for a prepared writer of " + op.key())));
        long since = services.nowMicros();
        services.awaitFinish(writer, c -> {
            if (w.complete()) {
                if (services.blocking() != null) {
                    services.blocking().blocked(t.id(), t.typeId(), writer.id(), writer.typeId(), since,
                            services.nowMicros());
                }
                execute(t, st, op, k);
            }
        });
    }

    @Override
    public Version chooseRead(DsTxn t, Snapshot st, OpContext op, Version proposal) {
        if (st.startTs < 0) {
            return proposal;
        }
        if (readCommitted) {
            return proposal != null && proposal.committed() ? proposal : null; // the latest committed version
        }
        if (proposal != null && (proposal.writer() == t.id() || (inSubtree(proposal) && sameBatch(t, st, proposal)))) {
            return proposal;
        }
        // The proposal is another batch's: read the snapshot — but a version of the own batch below the proposal
        // was visible to the child and may have been read already (a child group orders its own batch), so it
        // stays visible: without this a second read of the key would skip back past it (a non-repeatable read).
        VersionChain chain = op.chain();
        int below = proposal == null ? -1 : chain.indexOf(proposal);
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (i < below && inSubtree(v) && sameBatch(t, st, v)) {
                return v;
            }
            if (v.committed() && (!inSubtree(v) || v.stamp(id) < st.startTs
                    || (dst != null && v.stamp(id) == st.startTs))) {
                return v;
            }
        }
        // Nothing committed before the snapshot: the row did not exist then. At the root, say so (null would make
        // the framework read the latest committed version, e.g. a row inserted after the snapshot was taken).
        return node.isRoot() ? Version.ABSENT : null;
    }

    @Override
    public void afterOp(DsTxn t, Snapshot st, OpContext op) {
        Version w = op.written();
        if (w != null && !st.written.contains(w)) {
            st.written.add(w);
            if (st.startTs >= 0) {
                w.setAuxStamp(id, st.startTs);
            }
        }
        if (st.startTs < 0) {
            if (dst != null) {
                if (st.keys == null) {
                    st.keys = new ArrayList<>(4);
                }
                if (!st.keys.contains(op.key())) {
                    st.keys.add(op.key());
                    dst.observe(op.key(), op.chain(), id);
                }
            }
            return;
        }
        if (op.op().kind().reads() && dst == null) {
            recheckSnapshot(t, st, op); // under DST the claim made in execute keeps later writers above the snapshot
        }
        if (rootOpt) {
            return;
        }
        if (w != null) {
            recheckWriteWrite(t, st, op, w);
        }
        if (op.op().kind().reads()) {
            afterRead(t, st, op);
        }
        if (w != null) {
            afterWrite(t, st, op);
        }
    }

    /** A snapshot read must not skip a prepared writer of another batch (its commit timestamp may be lower). */
    private void recheckSnapshot(DsTxn t, Snapshot st, OpContext op) {
        VersionChain chain = op.chain();
        int from = op.chosen() == null ? 0 : chain.indexOf(op.chosen()) + 1;
        for (int i = from; i < chain.size(); i++) {
            Version v = chain.get(i);
            if (!v.committed() && inSubtree(v) && !sameBatch(t, st, v) && prepared(v.writer())) {
                t.doom("ssi: a writer of " + op.key() + " prepared while the snapshot read waited below");
                return;
            }
        }
    }

    /** First updater wins, checked again at the time the version is installed. */
    private void recheckWriteWrite(DsTxn t, Snapshot st, OpContext op, Version mine) {
        VersionChain chain = op.chain();
        for (int i = chain.indexOf(mine) - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (inSubtree(v) && !sameBatch(t, st, v) && (!v.committed() || v.stamp(id) > st.startTs)) {
                t.doom("ssi: write-write conflict on " + op.key() + " with a concurrent transaction of another batch"
                        + " (found when the write was applied)");
                return;
            }
        }
    }

    private void afterRead(DsTxn t, Snapshot st, OpContext op) {
        VersionChain chain = op.chain();
        int from = op.chosen() == null ? 0 : chain.indexOf(op.chosen()) + 1;
        for (int i = from; i < chain.size(); i++) {
            Version v = chain.get(i);
            if (!inSubtree(v) || sameBatch(t, st, v)) {
                continue;
            }
            if (!node.isRoot()) {
                t.doom("ssi (inner): snapshot read of " + op.key() + " misses a newer write of another batch");
                return;
            }
            t.report(level, new AntiDependency(st.startTs, v.auxStamp(id)));
        }
        marks.add(op.key(), t, st);
        scheduleGc();
    }

    private void afterWrite(DsTxn t, Snapshot st, OpContext op) {
        for (ReadMarks.Mark m : marks.on(op.key())) {
            DsTxn r = m.reader();
            if (r == t || (r.finished() && !r.committed()) || m.state().startTs < 0) {
                continue;
            }
            boolean mate = !node.isLeaf() && node.sameGroup(t.id(), t.leaf(), t.instance(), r.id(), r.leaf(),
                    r.instance()) && m.state().startTs == st.startTs;
            if (mate) {
                continue;
            }
            if (!node.isRoot()) {
                if (!r.finished()) {
                    t.doom("ssi (inner): write of " + op.key() + " over the read of a live transaction of another batch");
                    return;
                }
                continue; // the reader committed first: the edge follows commit order
            }
            t.report(level, new AntiDependency(m.state().startTs, st.startTs));
        }
    }

    @Override
    public void validate(DsTxn t, Snapshot st, Continuation k) {
        if (rootOpt && st.startTs >= 0) {
            k.proceed(); // read-only under the root optimization
            return;
        }
        DependencyWaits.awaitLowerLevels(services, t, level, new Continuation() {
            @Override
            public void proceed() {
                if (dst != null) {
                    // RW1, after the in-group dependencies committed here (their timestamps are installed)
                    st.bound = Math.max(st.started, dst.bound(st.keys == null ? List.of() : st.keys));
                    t.report(level, new DstBound(st.bound));
                }
                st.prepared = true;
                st.seenAtPrepare = maxCts;
                preparedUpdates.add(st);
                k.proceed();
            }

            @Override
            public void abort(AbortReason reason) {
                k.abort(reason);
            }
        });
    }

    @Override
    public void finish(DsTxn t, Snapshot st, boolean committed, Object commitMeta) {
        st.prepared = false;
        preparedUpdates.remove(st);
        if (dst != null) {
            dst.snapshotEnded(st);
        }
        if (commitMeta instanceof CommitTs c) {
            st.cts = c.cts();
            maxCts = Math.max(maxCts, c.cts());
            if (dst != null && st.keys != null) {
                dst.install(st.keys, c.cts()); // RW2, in the commit's atomic step (the child releases its locks in it)
            }
            for (Version v : st.written) {
                v.setStamp(id, c.cts());
            }
        }
    }

    /**
     * Reads from the nearest replica (docs/mechanisms.md "Replication"): only at a root under the root optimization
     * (read-only groups read snapshots and leave no read marks), not under the read-committed baseline. Every
     * transaction that commits here from now on is either prepared here now or prepares later. GTS: a commit
     * timestamp is taken after every vote, so a prepared one's exceeds the largest commit timestamp seen here when
     * it prepared, a later preparer's the largest seen now — {@code W} is the least of these. DST: a prepared one
     * commits at or above its bound here, a later one above the claim floor (RW1), which this call raises to the
     * server's clock minus the staleness bound, as a snapshot read at that timestamp would (RO2) — {@code W} is the
     * least of that and the prepared bounds minus one.
     */
    @Override
    public long replicaFloor() {
        if (!rootOpt || readCommitted) {
            return Long.MIN_VALUE;
        }
        long w;
        if (dst != null) {
            w = org.tebaldi.core.cc.ts.HybridClock.ofMicros(services.nowMicros() - stalenessMicros);
            dst.claim(null, w);
            for (Snapshot p : preparedUpdates) {
                w = Math.min(w, p.bound - 1);
            }
        } else {
            w = maxCts;
            for (Snapshot p : preparedUpdates) {
                w = Math.min(w, p.seenAtPrepare);
            }
        }
        return w;
    }

    /**
     * How far inside DST's garbage-collection horizon a backup may still serve a snapshot, µs: a primary confirms a
     * version only once its clock is {@code staleness} + {@link DstTuples#GC_SLACK_MICROS} past the version's stamp,
     * so a snapshot no older than {@code staleness} + (slack − this margin) by the backup's clock skips no settled
     * version, as long as the backup's clock trails no primary's by more than the margin.
     */
    static final long REPLICA_GC_MARGIN_MICROS = 100_000;

    /**
     * Reads from the nearest replica: GTS needs no bound (a snapshot's batch holds back the service's watermark,
     * which garbage collection waits for, until the transaction ends). DST confirms garbage collection by the
     * data server's clock and the snapshots live there only; a snapshot reading at a backup is live at no primary,
     * so the backup serves it only while it is younger than {@code staleness} + GC slack − {@link
     * #REPLICA_GC_MARGIN_MICROS} by its own clock.
     */
    @Override
    public long replicaServeFloor() {
        if (dst == null) {
            return Long.MIN_VALUE;
        }
        return org.tebaldi.core.cc.ts.HybridClock.ofMicros(services.nowMicros() - stalenessMicros
                - DstTuples.GC_SLACK_MICROS + REPLICA_GC_MARGIN_MICROS);
    }

    private void scheduleGc() {
        if (!gcScheduled) {
            gcScheduled = true;
            services.schedule(GC_MICROS, () -> ts.watermark(false, wm -> {
                marks.prune(wm);
                gcScheduled = false;
                if (marks.keys() > 0) {
                    scheduleGc();
                }
            }));
        }
    }

    /**
     * Garbage collection (§4.5.3): a version this node stamped with commit timestamp {@code c} hides the older ones
     * from every snapshot that starts after {@code c}; so the epoch is confirmed once the watermark (the oldest
     * start timestamp of a running or future batch of this node) is above the newest commit timestamp among
     * {@code written}. Versions written outside this node's subtree carry no stamp and need nothing.
     */
    @Override
    public void confirmGc(List<Version> written, Runnable confirmed) {
        if (dst != null) {
            dst.confirmGc(written, id, confirmed);
            return;
        }
        gcWaits.whenAboveStamps(written, id, confirmed);
    }

    @Override
    public void onMessage(org.tebaldi.core.runtime.NodeId from, Object payload) {
        ts.handle(payload);
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }
}
