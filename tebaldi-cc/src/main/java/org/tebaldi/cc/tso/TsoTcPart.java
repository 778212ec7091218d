package org.tebaldi.cc.tso;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.service.GroupBatches;
import org.tebaldi.core.service.TsClient;
import org.tebaldi.core.tree.CcNode;

/**
 * TC part of TSO (dissertation §4.4.4). As a leaf: one timestamp per transaction from the timestamp service
 * (registered there so read marks can be collected), and promises of the keys its stored procedure will write
 * that follow from its inputs, sent to the data servers before any operation. As an inner node: one timestamp
 * per batch of a child group, and commit only after every batch with a lower timestamp finished (commit in batch
 * order).
 */
final class TsoTcPart implements TcPart {
    /** Per-transaction state. */
    static final class Txn {
        long ts = -1;
        GroupBatches.Batch batch;
        int[] promisedAt = new int[0];
    }

    private record GroupKey(int child, long instance) {
    }

    private CcNode node;
    private final TcServices services;
    private final int level;
    private final boolean promises;
    private final TsClient ts;
    private final GroupBatches batches;

    TsoTcPart(CcNode node, TcServices services, boolean promises, long batchMicros) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.promises = promises && node.isLeaf();
        this.ts = new TsClient(services, node.id());
        this.batches = node.isLeaf() ? null : new GroupBatches(services, ts, batchMicros);
    }

    @Override
    public void start(TcTxn t, Continuation k) {
        Txn st = new Txn();
        t.setState(level, st);
        if (node.isLeaf()) {
            ts.openBatch(x -> {
                st.ts = x;
                if (services.txn(t.id()) == null) {
                    ts.finishBatch(x);
                    return;
                }
                promise(t, st);
                k.proceed();
            });
            return;
        }
        int child = node.childIndexOf(t.leaf());
        CcNode c = node.children().get(child);
        batches.join(new GroupKey(child, c.isLeaf() && c.instanceBy() != null ? t.instance() : 0), b -> {
            if (services.txn(t.id()) == null) {
                batches.leave(b);
                return;
            }
            st.batch = b;
            st.ts = b.ts();
            k.proceed();
        });
    }

    private void promise(TcTxn t, Txn st) {
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
    public Object meta(TcTxn t) {
        Txn st = (Txn) t.state(level);
        return st == null || st.ts < 0 ? null : new TsoMessages.Meta(st.ts);
    }

    @Override
    public void validate(TcTxn t, Continuation k) {
        Txn st = (Txn) t.state(level);
        if (node.isLeaf()) {
            k.proceed();
            return;
        }
        boolean[] over = {false};
        org.tebaldi.core.runtime.Cancellable timer = services.schedule(services.waitTimeoutMicros(), () -> {
            if (!over[0]) {
                over[0] = true;
                k.abort(org.tebaldi.core.txn.AbortReason.conflict("tso: waited " + services.waitTimeoutMicros() / 1000
                        + " ms for the batches before " + st.ts + " to commit"));
            }
        });
        ts.awaitBelow(st.ts, () -> {
            if (!over[0]) {
                over[0] = true;
                timer.cancel();
                k.proceed();
            }
        });
    }

    @Override
    public void commit(TcTxn t) {
        end(t);
    }

    @Override
    public void abort(TcTxn t) {
        end(t);
    }

    private void end(TcTxn t) {
        Txn st = (Txn) t.state(level);
        if (st == null) {
            return;
        }
        if (node.isLeaf()) {
            if (st.ts > 0) {
                ts.finishBatch(st.ts);
            }
            for (int ds : st.promisedAt) {
                services.send(NodeId.ds(ds), node.id(), new TsoMessages.PromiseDone(t.id()));
            }
        } else if (st.batch != null) {
            batches.leave(st.batch);
        }
        t.setState(level, null);
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        ts.handle(payload);
    }

    @Override
    public void rebind(CcNode n) {
        this.node = n;
    }
}
