package org.tebaldi.cc.tso;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.cc.TimedWait;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.service.GroupBatches;
import org.tebaldi.core.service.TsClient;
import org.tebaldi.core.cc.ts.TimestampScheme;
import org.tebaldi.core.cc.ts.TimestampSource;
import org.tebaldi.core.cc.ts.TimestampSources;
import org.tebaldi.core.tree.CcNode;

/**
 * TC part of TSO (dissertation §4.4.4). As a leaf: one timestamp per transaction from the timestamp service
 * (registered there so read marks can be collected) — or, with {@code timestamps: dst}, from the coordinator's
 * hybrid clock ({@link TimestampSource#uniqueTs}: distinct per coordinator, moved past the timestamps data servers
 * report on refusals, {@link TsoMessages.Seen}) — and promises of the keys its stored procedure will write
 * that follow from its inputs, sent to the data servers before any operation. As an inner node: one timestamp
 * per batch of a child group, and commit only after every batch with a lower timestamp finished (commit in batch
 * order).
 */
final class TsoTcPart implements TcPart<TsoTcPart.Stamp> {
    /** A transaction's timestamp (its batch's, when inner), its batch, and where it promised writes. */
    static final class Stamp {
        long ts = -1;
        GroupBatches.Batch batch;
        int[] promisedAt = new int[0];
    }

    private CcNode node;
    private final TcServices services;
    private final boolean promises;
    /** The timestamp service's client (GTS), null under DST. */
    private final TsClient ts;
    /** The hybrid clock's source (DST leaf), null under GTS. */
    private final TimestampSource source;
    private final GroupBatches batches;

    TsoTcPart(CcNode node, TcServices services, boolean promises, long batchMicros) {
        this.node = node;
        this.services = services;
        this.promises = promises && node.isLeaf();
        boolean dst = TimestampOrdering.dst(node);
        this.source = dst ? TimestampSources.of(TimestampScheme.DST, services, null) : null;
        this.ts = dst ? null : new TsClient(services, node.id());
        this.batches = node.isLeaf() ? null : new GroupBatches(services, ts, batchMicros);
    }

    @Override
    public Stamp newState(TcTxn t) {
        return new Stamp();
    }

    @Override
    public void start(TcTxn t, Stamp st, Continuation k) {
        if (source != null) {
            source.uniqueTs(x -> {
                st.ts = x;
                promise(t, st);
                k.proceed();
            });
            return;
        }
        if (node.isLeaf()) {
            ts.openBatch(x -> {
                st.ts = x;
                if (services.txn(t.id()) == null) {
                    ts.finishBatch(x); // ended while the timestamp was on its way
                    return;
                }
                promise(t, st);
                k.proceed();
            });
            return;
        }
        batches.join(GroupBatches.keyFor(node, t), b -> {
            if (services.txn(t.id()) == null) {
                batches.leave(b);
                return;
            }
            st.batch = b;
            st.ts = b.ts();
            k.proceed();
        });
    }

    private void promise(TcTxn t, Stamp st) {
        TxnType type = services.database().type(t.typeId());
        if (!promises || !type.isProcedure()) {
            return;
        }
        Map<Integer, List<Key>> byDs = new TreeMap<>();
        for (Key key : type.procedure().keysWrittenFromInputs(t.inputs())) {
            byDs.computeIfAbsent(services.partitionOf(key), d -> new ArrayList<>()).add(key);
        }
        st.promisedAt = byDs.keySet().stream().mapToInt(Integer::intValue).toArray();
        byDs.forEach((ds, keys) -> services.send(NodeId.ds(ds), node.id(),
                new TsoMessages.Promise(t.id(), st.ts, keys.toArray(new Key[0]))));
    }

    @Override
    public Object meta(TcTxn t, Stamp st) {
        return st.ts < 0 ? null : new TsoMessages.Meta(st.ts);
    }

    /** Inner: commit only after every batch with a lower timestamp finished (commit in batch order). */
    @Override
    public void validate(TcTxn t, Stamp st, Continuation k) {
        if (node.isLeaf()) {
            k.proceed();
            return;
        }
        TimedWait w = services.awaitOrTimeout(services.waitTimeoutMicros(), () -> k.abort(AbortReason.conflict(
                "tso: waited " + services.waitTimeoutMicros() / 1000 + " ms for the batches before " + st.ts
                        + " to commit")));
        ts.awaitBelow(st.ts, () -> {
            if (w.complete()) {
                k.proceed();
            }
        });
    }

    @Override
    public void finish(TcTxn t, Stamp st, boolean committed) {
        if (node.isLeaf()) {
            if (st.ts > 0 && ts != null) {
                ts.finishBatch(st.ts);
            }
            for (int ds : st.promisedAt) {
                services.send(NodeId.ds(ds), node.id(), new TsoMessages.PromiseDone(t.id()));
            }
        } else if (st.batch != null) {
            batches.leave(st.batch);
        }
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (payload instanceof TsoMessages.Seen s) {
            if (source != null) {
                source.observe(s.ts());
            }
            return;
        }
        if (ts != null) {
            ts.handle(payload);
        }
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }

    /** Dropped by a partial restart or an online update: batches it opened and never finished are finished. */
    @Override
    public void dropped() {
        if (ts != null) {
            ts.forget();
        }
    }

    /** The timestamp service failed: no batch of its term takes new members. */
    @Override
    public void serviceFailed(NodeId service) {
        if (batches != null && service.role() == Role.TS) {
            batches.closeAll();
        }
    }
}
