package org.tebaldi.cc.ssi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.tebaldi.core.cc.CcReport;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.ts.TimestampScheme;
import org.tebaldi.core.cc.ts.TimestampSource;
import org.tebaldi.core.cc.ts.TimestampSources;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.service.GroupBatches;
import org.tebaldi.core.service.TsClient;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;

/**
 * TC part of SSI (dissertation §4.4.3). Start: join the child group's batch and take its start timestamp (a leaf
 * SSI node batches nobody: every transaction is its own group). Validation: send the anti-dependency edges found
 * at the data servers, with a fresh commit timestamp, to the batch manager for the pivot check, then commit with
 * that timestamp. Under the root optimization, update transactions skip start and pivot check and only take a commit
 * timestamp; read-only transactions share snapshot batches and need no commit timestamp. With {@code timestamps:
 * dst} (root optimization only) no timestamp comes from the service: a read-only transaction reads at its
 * coordinator's hybrid clock minus the staleness bound (RO1), an update transaction commits at the largest bound
 * its data servers reported with their votes, or the local clock if later (RW1).
 */
final class SsiTcPart implements TcPart<SsiTcPart.Snapshot> {
    private static final NodeId BATCH_MANAGER = new NodeId(Role.BATCH, 0);
    /** {@link Snapshot#cts} of a transaction that took no commit timestamp (yet). */
    private static final long NO_CTS = -1;

    /** A transaction's snapshot (its batch's start timestamp), commit timestamp, and the edges found for it. */
    static final class Snapshot {
        long startTs = -1;
        GroupBatches.Batch batch;
        long cts = NO_CTS;
        final List<AntiDependency> edges = new ArrayList<>(0);
        /** DST: the largest bound the data servers reported (RW1); the commit timestamp is at least this. */
        long bound;
        /** DST, update transaction: the coordinator's clock at its start (a lower bound on its commit), or -1. */
        long started = -1;
    }

    private CcNode node;
    private final TcServices services;
    private final boolean rootOpt;
    private final TsClient ts;
    private final GroupBatches batches;
    /** Where commit and DST snapshot timestamps come from ({@code timestamps} option). */
    private final TimestampSource source;
    private final long stalenessMicros;
    /** DST's read-committed baseline: its read-only reads take the latest committed version, never a backup's. */
    private final boolean readCommitted;
    private final HashMap<Long, Consumer<PivotMessages.Verdict>> verdicts = new HashMap<>();

    SsiTcPart(CcNode node, TcServices services, long intervalMicros) {
        this.node = node;
        this.services = services;
        this.rootOpt = SsiMode.rootOptimized(node, services.database());
        this.ts = new TsClient(services, node.id());
        this.batches = new GroupBatches(services, ts, node.isLeaf() ? 0 : intervalMicros);
        this.source = TimestampSources.of(SsiMode.dst(node, services.database()) ? TimestampScheme.DST
                : TimestampScheme.GTS, services, ts);
        this.stalenessMicros = node.durationOption(SsiMode.STALENESS, 0);
        this.readCommitted = source.scheme() == TimestampScheme.DST && SsiMode.readCommitted(node);
    }

    private boolean updateUnderRootOpt(TcTxn t) {
        return rootOpt && !services.database().type(t.typeId()).readOnly();
    }

    @Override
    public Snapshot newState(TcTxn t) {
        return new Snapshot();
    }

    @Override
    public void start(TcTxn t, Snapshot st, Continuation k) {
        if (updateUnderRootOpt(t)) {
            if (source.scheme() == TimestampScheme.DST) {
                source.readTs(0, now -> st.started = now);
            }
            k.proceed();
            return;
        }
        if (source.scheme() == TimestampScheme.DST) {
            // RO1: a read-only snapshot at the local clock minus the staleness bound; no batch, no message
            source.readTs(stalenessMicros, rts -> {
                st.startTs = rts;
                k.proceed();
            });
            return;
        }
        batches.join(GroupBatches.keyFor(node, t), b -> {
            if (services.txn(t.id()) == null) {
                batches.leave(b); // ended while waiting for the batch
                return;
            }
            st.batch = b;
            st.startTs = b.ts();
            k.proceed();
        });
    }

    @Override
    public Object meta(TcTxn t, Snapshot st) {
        if (st.started >= 0) {
            return new DstStart(st.started);
        }
        return st.startTs < 0 ? null : new SsiMeta(st.startTs);
    }

    /**
     * Reads from the nearest replica: a read-only transaction under the root optimization reads the newest version
     * committed below its snapshot (GTS: stamp {@code < startTs}) or at or below it (DST: {@code <= startTs}) and
     * leaves no read mark, so any copy holding every commit up to that bound can answer it (see
     * {@link SsiDsPart#replicaFloor}).
     */
    @Override
    public long replicaSnapshot(TcTxn t, Snapshot st) {
        if (!rootOpt || readCommitted || updateUnderRootOpt(t) || st.startTs < 0) {
            return Long.MIN_VALUE;
        }
        return source.scheme() == TimestampScheme.DST ? st.startTs : st.startTs - 1;
    }

    @Override
    public void onReport(TcTxn t, Snapshot st, CcReport report) {
        if (report instanceof AntiDependency e) {
            st.edges.add(e);
        } else if (report instanceof DstBound b) {
            st.bound = Math.max(st.bound, b.bound());
        }
    }

    @Override
    public void validate(TcTxn t, Snapshot st, Continuation k) {
        if (rootOpt) {
            if (updateUnderRootOpt(t)) {
                commitTs(t, st, c -> k.proceed());
            } else {
                k.proceed();
            }
            return;
        }
        if (!node.isRoot()) {
            commitTs(t, st, c -> k.proceed()); // inner SSI commits in its own order: no pivot can form (see SsiDsPart)
            return;
        }
        commitTs(t, st, c -> {
            long r = services.newRequestId(); // unique on this node: a dropped part's verdict never matches
            verdicts.put(r, v -> {
                if (v.abort()) {
                    k.abort(AbortReason.conflict(v.reason()));
                } else {
                    k.proceed();
                }
            });
            services.send(BATCH_MANAGER, node.id(), new PivotMessages.Check(r, st.startTs, c, flat(st.edges)));
        });
    }

    /**
     * Takes a commit timestamp, then {@code then} — unless the transaction ended while the timestamp was on its way
     * (its coordinator's transaction timeout, a failed service): a late timestamp starts no pivot check and no
     * further level of an ended transaction's validation.
     */
    private void commitTs(TcTxn t, Snapshot st, LongConsumer then) {
        source.commitTs(st.bound, c -> {
            if (services.txn(t.id()) == null) {
                return;
            }
            st.cts = c;
            then.accept(c);
        });
    }

    /** The edges as the pivot check's wire form: reader batch, writer batch, pairwise. */
    private static long[] flat(List<AntiDependency> edges) {
        long[] out = new long[edges.size() * 2];
        for (int i = 0; i < edges.size(); i++) {
            out[2 * i] = edges.get(i).readerBatch();
            out[2 * i + 1] = edges.get(i).writerBatch();
        }
        return out;
    }

    @Override
    public Object commitMeta(TcTxn t, Snapshot st) {
        return st.cts == NO_CTS ? null : new CommitTs(st.cts);
    }

    @Override
    public void finish(TcTxn t, Snapshot st, boolean committed) {
        if (st.batch != null) {
            batches.leave(st.batch);
            st.batch = null;
        }
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (source.handle(payload)) {
            return;
        }
        if (payload instanceof PivotMessages.Verdict v) {
            Consumer<PivotMessages.Verdict> c = verdicts.remove(v.reqId());
            if (c != null) {
                c.accept(v);
            }
        }
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }

    /** Dropped by a partial restart or an online update: batches it opened and never finished are finished. */
    @Override
    public void dropped() {
        ts.forget();
    }

    /** The timestamp service failed: no batch of its term takes new members. */
    @Override
    public void serviceFailed(NodeId service) {
        if (batches != null && service.role() == Role.TS) {
            batches.closeAll();
        }
    }
}
