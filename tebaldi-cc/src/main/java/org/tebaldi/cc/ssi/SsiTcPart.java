package org.tebaldi.cc.ssi;

import java.util.HashMap;
import java.util.function.Consumer;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.TcTxn;
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
 * timestamp; read-only transactions share snapshot batches and need no commit timestamp.
 */
final class SsiTcPart implements TcPart {
    private static final NodeId BATCH_MANAGER = new NodeId(Role.BATCH, 0);

    /** Per-transaction state. */
    static final class Txn {
        long startTs = -1;
        GroupBatches.Batch batch;
        long cts;
        long[] edges = new long[0];
    }

    private record GroupKey(int child, long instance) {
    }

    private CcNode node;
    private final TcServices services;
    private final int level;
    private final boolean rootOpt;
    private final TsClient ts;
    private final GroupBatches batches;
    private final HashMap<Long, Consumer<PivotMessages.Verdict>> verdicts = new HashMap<>();
    private long nextReq;

    SsiTcPart(CcNode node, TcServices services, long intervalMicros) {
        this.node = node;
        this.services = services;
        this.level = node.depth();
        this.rootOpt = SsiMode.rootOptimized(node, services.database());
        this.ts = new TsClient(services, node.id());
        this.batches = new GroupBatches(services, ts, node.isLeaf() ? 0 : intervalMicros);
    }

    private boolean updateUnderRootOpt(TcTxn t) {
        return rootOpt && !services.database().type(t.typeId()).readOnly();
    }

    @Override
    public void start(TcTxn t, Continuation k) {
        Txn st = new Txn();
        t.setState(level, st);
        if (updateUnderRootOpt(t)) {
            k.proceed();
            return;
        }
        Object group;
        if (node.isLeaf()) {
            group = t.id();
        } else {
            int child = node.childIndexOf(t.leaf());
            CcNode c = node.children().get(child);
            group = new GroupKey(child, c.isLeaf() && c.instanceBy() != null ? t.instance() : 0);
        }
        batches.join(group, b -> {
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
    public Object meta(TcTxn t) {
        Txn st = (Txn) t.state(level);
        return st == null || st.startTs < 0 ? null : new SsiMeta(st.startTs);
    }

    @Override
    public void onReport(TcTxn t, Object info) {
        Txn st = (Txn) t.state(level);
        long[] e = (long[]) info;
        long[] all = java.util.Arrays.copyOf(st.edges, st.edges.length + e.length);
        System.arraycopy(e, 0, all, st.edges.length, e.length);
        st.edges = all;
    }

    @Override
    public void validate(TcTxn t, Continuation k) {
        Txn st = (Txn) t.state(level);
        if (rootOpt) {
            if (updateUnderRootOpt(t)) {
                ts.next(c -> {
                    st.cts = c;
                    k.proceed();
                });
            } else {
                k.proceed();
            }
            return;
        }
        if (!node.isRoot()) {
            ts.next(c -> { // inner SSI commits in its own order: no pivot can form (see SsiDsPart)
                st.cts = c;
                k.proceed();
            });
            return;
        }
        ts.next(c -> {
            st.cts = c;
            long r = ++nextReq;
            verdicts.put(r, v -> {
                if (v.abort()) {
                    k.abort(AbortReason.conflict(v.reason()));
                } else {
                    k.proceed();
                }
            });
            services.send(BATCH_MANAGER, node.id(), new PivotMessages.Check(r, st.startTs, c, st.edges));
        });
    }

    @Override
    public Object commitMeta(TcTxn t) {
        Txn st = (Txn) t.state(level);
        return st.cts > 0 ? Long.valueOf(st.cts) : null;
    }

    @Override
    public void commit(TcTxn t) {
        leave(t);
    }

    @Override
    public void abort(TcTxn t) {
        leave(t);
    }

    private void leave(TcTxn t) {
        Txn st = (Txn) t.state(level);
        if (st != null && st.batch != null) {
            batches.leave(st.batch);
            st.batch = null;
        }
    }

    @Override
    public void onMessage(NodeId from, Object payload) {
        if (ts.handle(payload)) {
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
}
