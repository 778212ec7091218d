package org.tebaldi.core.service;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;

/**
 * The timestamp service node (dissertation §4.4.3 "a centralized timestamp server", §4.6 setup "one additional
 * machine for timestamp assignment and batch management"): issues strictly increasing timestamps and keeps the
 * registry of unfinished batches per CC node, so that "all batches below ts finished" (TSO's commit in batch
 * order) and watermarks (garbage collection of read marks) are answered without races — a batch is registered
 * in the same step that issues its timestamp.
 */
public final class TimestampService implements Actor, ElectedService {
    /** Term e issues timestamps from e·2^{@value} on. */
    public static final int TERM_SHIFT = 40;

    private NodeContext ctx;
    private long next = 1;
    /** Unfinished batch timestamps per CC node. */
    private final Map<Integer, TreeSet<Long>> open = new HashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();
    /** Which node opened each unfinished batch (so a failed coordinator's batches can be closed). */
    private final Map<Long, NodeId> openedBy = new HashMap<>();

    private record Waiter(NodeId from, int ccNode, long reqId, long below) {
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Starts issuing above {@code floor} (a new leadership term after a failover starts above every timestamp the
     * previous leader may have issued). Call before the first request.
     */
    public void startAbove(long floor) {
        next = Math.max(next, floor + 1);
    }

    /**
     * Term {@code epoch} issues above {@code epoch << 40} (2⁴⁰ ≈ 1.1·10¹² timestamps per term), so timestamps
     * increase strictly across terms; the registry of unfinished batches starts empty (coordinators abort the
     * transactions of the old term when they learn of its failure).
     */
    @Override
    public void startTerm(long epoch) {
        if (epoch < 1) {
            throw new IllegalArgumentException("a term's epoch is at least 1, got " + epoch);
        }
        startAbove(epoch << TERM_SHIFT);
    }

    @Override
    public void onMessage(NodeId from, Object msg) {
        if (msg instanceof NodeDown d) {
            // a failed coordinator never finishes its batches: finish them so batch-order waits go on
            openedBy.entrySet().removeIf(e -> {
                if (e.getValue().equals(d.node())) {
                    open.values().forEach(s -> s.remove(e.getKey()));
                    return true;
                }
                return false;
            });
            wake();
            return;
        }
        if (!(msg instanceof CcEnvelope env)) {
            return;
        }
        int node = env.ccNode();
        Object p = env.payload();
        if (p instanceof TsMessages.Next n) {
            reply(from, node, new TsMessages.Issued(n.reqId(), next++));
        } else if (p instanceof TsMessages.OpenBatch o) {
            long ts = next++;
            open.computeIfAbsent(o.ccNode(), k -> new TreeSet<>()).add(ts);
            openedBy.put(ts, from);
            reply(from, node, new TsMessages.Issued(o.reqId(), ts));
        } else if (p instanceof TsMessages.FinishBatch f) {
            TreeSet<Long> s = open.get(f.ccNode());
            if (s != null) {
                s.remove(f.ts());
            }
            openedBy.remove(f.ts());
            wake();
        } else if (p instanceof TsMessages.Forget f) {
            forget(from, f.ccNode());
        } else if (p instanceof TsMessages.AwaitBelow a) {
            if (done(a.ccNode(), a.ts())) {
                reply(from, node, new TsMessages.BelowDone(a.reqId()));
            } else {
                waiters.add(new Waiter(from, node, a.reqId(), a.ts()));
            }
        } else if (p instanceof TsMessages.GetWatermark g) {
            reply(from, node, new TsMessages.Watermark(g.reqId(), watermark(g.ccNode())));
        }
    }

    /** Finishes every unfinished batch of {@code ccNode} that {@code by} opened ({@link TsMessages.Forget}). */
    private void forget(NodeId by, int ccNode) {
        TreeSet<Long> s = open.get(ccNode);
        if (s == null) {
            return;
        }
        s.removeIf(ts -> {
            if (by.equals(openedBy.get(ts))) {
                openedBy.remove(ts);
                return true;
            }
            return false;
        });
        wake();
    }

    private boolean done(int ccNode, long below) {
        TreeSet<Long> s = open.get(ccNode);
        return s == null || s.isEmpty() || s.first() >= below;
    }

    private long watermark(int ccNode) {
        long w = next;
        for (Map.Entry<Integer, TreeSet<Long>> e : open.entrySet()) {
            if ((ccNode < 0 || e.getKey() == ccNode) && !e.getValue().isEmpty()) {
                w = Math.min(w, e.getValue().first());
            }
        }
        return w;
    }

    private void wake() {
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (done(w.ccNode(), w.below())) {
                it.remove();
                reply(w.from(), w.ccNode(), new TsMessages.BelowDone(w.reqId()));
            }
        }
    }

    private void reply(NodeId to, int ccNode, Object payload) {
        ctx.send(to, new CcEnvelope(ccNode, payload));
    }
}
