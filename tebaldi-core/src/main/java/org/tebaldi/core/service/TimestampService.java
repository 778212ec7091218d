package org.tebaldi.core.service;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
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
 * in the same step that issues its timestamp. Every request may come twice (its client asks again when a message
 * was lost, {@link TsClient}): a repeated {@link TsMessages.OpenBatch} gets the batch it registered, a repeated
 * {@link TsMessages.AwaitBelow} joins the first wait; {@link TsMessages.Sync} finishes the batches a client no
 * longer accounts for (a lost finish would otherwise hold back every batch-order wait and watermark of its node).
 */
public final class TimestampService implements Actor, ElectedService {
    /** Term e issues timestamps from e·2^{@value} on. */
    public static final int TERM_SHIFT = 40;

    private NodeContext ctx;
    private long next = 1;
    /** Unfinished batch timestamps per CC node. */
    private final Map<Integer, TreeSet<Long>> open = new HashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();
    /** Who opened each unfinished batch, by timestamp (so a failed coordinator's batches can be finished). */
    private final Map<Long, Opened> openedBy = new HashMap<>();
    /** The unfinished batch each {@link TsMessages.OpenBatch} registered, by sender and request id. */
    private final Map<Request, Long> byRequest = new HashMap<>();

    private record Waiter(NodeId from, int ccNode, long reqId, long below) {
    }

    /** A request of one sender (request ids are unique per sender node). */
    private record Request(NodeId from, long reqId) {
    }

    /** An unfinished batch: the node that opened it, its CC node, and the request that did. */
    private record Opened(NodeId by, int ccNode, long reqId) {
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
            finishWhere((ts, o) -> o.by().equals(d.node()));
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
            Long again = byRequest.get(new Request(from, o.reqId()));
            long ts = again != null ? again : register(from, o);
            reply(from, node, new TsMessages.Issued(o.reqId(), ts));
        } else if (p instanceof TsMessages.FinishBatch f) {
            if (finish(f.ts())) {
                wake();
            }
        } else if (p instanceof TsMessages.Forget f) {
            finishWhere((ts, o) -> o.by().equals(from) && o.ccNode() == f.ccNode());
        } else if (p instanceof TsMessages.Sync y) {
            sync(from, y);
            reply(from, node, new TsMessages.Synced(y.reqId()));
        } else if (p instanceof TsMessages.AwaitBelow a) {
            if (done(a.ccNode(), a.ts())) {
                reply(from, node, new TsMessages.BelowDone(a.reqId()));
            } else if (waiters.stream().noneMatch(w -> w.from().equals(from) && w.reqId() == a.reqId())) {
                waiters.add(new Waiter(from, node, a.reqId(), a.ts())); // asked again: the first wait answers
            }
        } else if (p instanceof TsMessages.GetWatermark g) {
            reply(from, node, new TsMessages.Watermark(g.reqId(), watermark(g.ccNode())));
        }
    }

    /** Registers a new unfinished batch of {@code o.ccNode()} opened by {@code from}; returns its timestamp. */
    private long register(NodeId from, TsMessages.OpenBatch o) {
        long ts = next++;
        open.computeIfAbsent(o.ccNode(), k -> new TreeSet<>()).add(ts);
        openedBy.put(ts, new Opened(from, o.ccNode(), o.reqId()));
        byRequest.put(new Request(from, o.reqId()), ts);
        return ts;
    }

    /** Finishes the unfinished batch {@code ts}; false if there is none (finished already, or a plain timestamp). */
    private boolean finish(long ts) {
        Opened o = openedBy.remove(ts);
        if (o == null) {
            return false;
        }
        TreeSet<Long> s = open.get(o.ccNode());
        if (s != null) {
            s.remove(ts);
        }
        byRequest.remove(new Request(o.by(), o.reqId()));
        return true;
    }

    /** Finishes every unfinished batch whose opener matches, then answers the waits that became done. */
    private void finishWhere(BiPredicate<Long, Opened> match) {
        List<Long> gone = new ArrayList<>();
        openedBy.forEach((ts, o) -> {
            if (match.test(ts, o)) {
                gone.add(ts);
            }
        });
        gone.forEach(this::finish);
        wake();
    }

    /**
     * {@link TsMessages.Sync}: every batch {@code from} opened at the CC node that is neither in its view's held
     * batches nor registered by one of its unanswered requests is finished — the sender will never finish it.
     */
    private void sync(NodeId from, TsMessages.Sync y) {
        Set<Long> held = new HashSet<>();
        for (long ts : y.held()) {
            held.add(ts);
        }
        Set<Long> asked = new HashSet<>();
        for (long r : y.asked()) {
            asked.add(r);
        }
        finishWhere((ts, o) -> o.by().equals(from) && o.ccNode() == y.ccNode() && !held.contains(ts)
                && !asked.contains(o.reqId()));
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
