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
 * check is needed (docs/mechanisms.md, SSI as an inner node). The rules between batches live in {@link BatchRules},
 * DST's snapshot reads and tuple timestamps in {@link DstReads}; this class dispatches and stamps.
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

    private final SsiScope s;
    private final DsServices services;
    private final int level;
    private final int id;
    private final boolean rootOpt;
    private final TsClient ts;
    private final org.tebaldi.core.service.WatermarkWaits gcWaits;
    private final BatchRules batches;
    /** DST's snapshot reads and tuple timestamps, null under GTS. */
    private final DstReads dst;
    /** DST's read-committed baseline ({@code roReads: read-committed}): read-only reads take the latest committed. */
    private final boolean readCommitted;
    /** DST's staleness bound, µs: snapshots read this far behind their coordinator's clock. */
    private final long stalenessMicros;
    /** Update transactions prepared here and not finished (their commit timestamps are still to come). */
    private final java.util.Set<Snapshot> preparedUpdates = new java.util.HashSet<>();
    /** The largest commit timestamp of a transaction committed here (GTS: issued before anything prepared later). */
    private long maxCts = Long.MIN_VALUE;

    SsiDsPart(CcNode node, DsServices services) {
        this.s = new SsiScope(node, services);
        this.services = services;
        this.level = s.level;
        this.id = s.id;
        this.rootOpt = SsiMode.rootOptimized(node, services.database());
        this.ts = new TsClient(services, node.id());
        this.gcWaits = new org.tebaldi.core.service.WatermarkWaits(services, ts, GC_MICROS);
        this.batches = new BatchRules(s, ts, GC_MICROS);
        this.dst = SsiMode.dst(node, services.database()) ? new DstReads(s,
                node.durationOption(SsiMode.STALENESS, 0), SsiMode.readCommitted(node)) : null;
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
                dst.tuples.snapshotLive(st);
            }
        }
    }

    @Override
    public void execute(DsTxn t, Snapshot st, OpContext op, Continuation k) {
        if (st.startTs < 0) {
            k.proceed(); // update transaction under the root optimization: the child decides
            return;
        }
        if (dst != null) {
            dst.execute(t, st, op, k, this::awaitPrepared);
            return;
        }
        if (st.startTs < ts.termFloor()) {
            k.abort(AbortReason.conflict("ssi: snapshot " + st.startTs + " is from a failed timestamp service's term "
                    + "(versions it needs may be pruned)"));
            return;
        }
        if (!rootOpt && op.op().kind().writes()) {
            String conflict = batches.writeConflict(t, st, op);
            if (conflict != null) {
                k.abort(AbortReason.conflict(conflict));
                return;
            }
        }
        if (op.op().kind().reads()) {
            VersionChain chain = op.chain();
            for (int i = chain.size() - 1; i >= 0; i--) {
                Version v = chain.get(i);
                if (s.preparedOtherBatch(t, st, v)) {
                    awaitPrepared(t, st, op, k, services.txn(v.writer()));
                    return;
                }
            }
        }
        k.proceed();
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
        if (dst != null && dst.readCommitted) {
            return proposal != null && proposal.committed() ? proposal : null; // the latest committed version
        }
        if (proposal != null && (proposal.writer() == t.id() || (s.inSubtree(proposal)
                && s.sameBatch(t, st, proposal)))) {
            return proposal;
        }
        // The proposal is another batch's: read the snapshot — but a version of the own batch below the proposal
        // was visible to the child and may have been read already (a child group orders its own batch), so it
        // stays visible: without this a second read of the key would skip back past it (a non-repeatable read).
        VersionChain chain = op.chain();
        int below = proposal == null ? -1 : chain.indexOf(proposal);
        for (int i = chain.size() - 1; i >= 0; i--) {
            Version v = chain.get(i);
            if (i < below && s.inSubtree(v) && s.sameBatch(t, st, v)) {
                return v;
            }
            if (v.committed() && (!s.inSubtree(v) || v.stamp(id) < st.startTs
                    || (dst != null && v.stamp(id) == st.startTs))) {
                return v;
            }
        }
        // Nothing committed before the snapshot: the row did not exist then. At the root, say so (null would make
        // the framework read the latest committed version, e.g. a row inserted after the snapshot was taken).
        return s.node.isRoot() ? Version.ABSENT : null;
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
                dst.touched(st, op);
            }
            return;
        }
        if (op.op().kind().reads() && dst == null) {
            batches.recheckSnapshot(t, st, op); // under DST the claim made in execute keeps later writers above
        }
        if (rootOpt) {
            return;
        }
        if (w != null) {
            batches.recheckWriteWrite(t, st, op, w);
        }
        if (op.op().kind().reads()) {
            batches.afterRead(t, st, op);
        }
        if (w != null) {
            batches.afterWrite(t, st, op);
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
                    t.report(level, new DstBound(dst.bound(st)));
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
            dst.tuples.snapshotEnded(st);
        }
        if (commitMeta instanceof CommitTs c) {
            st.cts = c.cts();
            maxCts = Math.max(maxCts, c.cts());
            if (dst != null && st.keys != null) {
                dst.tuples.install(st.keys, c.cts()); // RW2, in the commit's atomic step (the child releases its locks)
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
            dst.tuples.claim(null, w);
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
    /**
     * Garbage collection (§4.5.3): a version this node stamped with commit timestamp {@code c} hides the older ones
     * from every snapshot that starts after {@code c}; so the epoch is confirmed once the watermark (the oldest
     * start timestamp of a running or future batch of this node) is above the newest commit timestamp among
     * {@code written}. Versions written outside this node's subtree carry no stamp and need nothing.
     */
    @Override
    public void confirmGc(List<Version> written, Runnable confirmed) {
        if (dst != null) {
            dst.tuples.confirmGc(written, id, confirmed);
            return;
        }
        gcWaits.whenAboveStamps(written, id, confirmed);
    }

    /** DST's snapshot-read counters ({@link org.tebaldi.core.cc.ts.SnapshotStats}); none under GTS. */
    @Override
    public java.util.Map<String, Long> counters() {
        return dst == null ? java.util.Map.of() : dst.counters();
    }

    @Override
    public void onMessage(org.tebaldi.core.runtime.NodeId from, Object payload) {
        ts.handle(payload);
    }

    @Override
    public void rebind(CcNode n) {
        s.node = n;
    }
}
