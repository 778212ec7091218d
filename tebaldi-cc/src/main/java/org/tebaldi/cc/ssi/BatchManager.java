package org.tebaldi.cc.ssi;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.tebaldi.core.cc.CcEnvelope;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.service.TsClient;
import org.tebaldi.core.service.TsMessages;

/**
 * SSI's batch manager node (dissertation §4.4.3): keeps, per batch, whether it has an incoming and an outgoing
 * anti-dependency (rw) edge to another batch, and refuses the commit of a transaction whose check finds a pivot
 * batch — a batch with both — among its own batch and the endpoints of the edges it brings. Every edge is
 * brought by the transaction whose operation found it, before that transaction commits; so of the two edges
 * that make a batch a pivot, the later one's transaction is refused, which breaks every cycle (see
 * docs/mechanisms.md). Only a check that passes records its edges: a refused transaction aborts, and its edges
 * with it. A batch is forgotten once the timestamp service's watermark (the oldest start of a batch
 * still running) passes the last commit timestamp of its members and of the checks that touched it: no snapshot
 * that misses its writes, and no read mark of its members, can remain.
 */
public final class BatchManager implements Actor, org.tebaldi.core.service.ElectedService {
    private static final int IN = 1;
    private static final int OUT = 2;
    private static final long GC_MICROS = 50_000;

    /** Per batch: in/out flags and the last commit timestamp seen for it. */
    private static final class Entry {
        int flags;
        long end;
    }

    private final HashMap<Long, Entry> batches = new HashMap<>();
    private NodeContext ctx;
    private long watermarkReq;
    /**
     * Batches below this timestamp started before this instance's term: their edges died with the previous instance
     * (0: the first term). -1 while a replacement waits for its floor from the timestamp service.
     */
    private long floor;
    /** Checks that arrived while the floor was unknown, in order: (sender, envelope). */
    private final java.util.List<Object[]> held = new java.util.ArrayList<>();
    private static final long FLOOR_REQ = -1;

    /**
     * Term {@code epoch} &gt; 1 replaces a failed batch manager (docs/architecture.md, "Failures"): the edges the
     * old one knew are lost, so a check that touches a batch started before this term — below a fresh timestamp it
     * asks the timestamp service for when it starts — is refused (a retryable abort), and checks wait until that
     * floor is known. Term 1 starts with the cluster and refuses nothing. Call before the node starts.
     *
     * @throws IllegalArgumentException if {@code epoch < 1}
     */
    @Override
    public void startTerm(long epoch) {
        if (epoch < 1) {
            throw new IllegalArgumentException("a term's epoch is at least 1, got " + epoch);
        }
        floor = epoch > 1 ? -1 : 0;
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
        ctx.schedule(GC_MICROS, this::gc);
        if (floor < 0) {
            askFloor();
        }
    }

    /** Asks the timestamp service for a fresh timestamp as this term's floor, again every GC period until answered. */
    private void askFloor() {
        if (floor < 0) {
            ctx.send(TsClient.SERVICE, new CcEnvelope(-1, new TsMessages.Next(FLOOR_REQ)));
            ctx.schedule(GC_MICROS, this::askFloor);
        }
    }

    private void gc() {
        ctx.send(TsClient.SERVICE, new CcEnvelope(-1, new TsMessages.GetWatermark(++watermarkReq, -1)));
        ctx.schedule(GC_MICROS, this::gc);
    }

    @Override
    public void onMessage(NodeId from, Object msg) {
        if (!(msg instanceof CcEnvelope env)) {
            return;
        }
        if (env.payload() instanceof TsMessages.Issued i && i.reqId() == FLOOR_REQ) {
            if (floor < 0) {
                floor = i.ts();
                java.util.List<Object[]> waiting = new java.util.ArrayList<>(held);
                held.clear();
                waiting.forEach(h -> onMessage((NodeId) h[0], h[1]));
            }
        } else if (env.payload() instanceof PivotMessages.Check && floor < 0) {
            held.add(new Object[] {from, msg});
        } else if (env.payload() instanceof PivotMessages.Check c && beforeTerm(c) >= 0) {
            ctx.send(from, new CcEnvelope(env.ccNode(), new PivotMessages.Verdict(c.reqId(), true, "ssi: batch "
                    + beforeTerm(c) + " started before the batch manager's current term (its anti-dependencies were "
                    + "lost with the previous batch manager)")));
        } else if (env.payload() instanceof TsMessages.Watermark w) {
            for (Iterator<Map.Entry<Long, Entry>> it = batches.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Long, Entry> e = it.next();
                if (e.getKey() < w.watermark() && e.getValue().end < w.watermark()) {
                    it.remove();
                }
            }
        } else if (env.payload() instanceof PivotMessages.Check c) {
            String pivot = pivotWith(c);
            if (pivot == null) {
                apply(c);
            }
            ctx.send(from, new CcEnvelope(env.ccNode(), new PivotMessages.Verdict(c.reqId(), pivot != null,
                    pivot == null ? null : "ssi: " + pivot + " is a pivot (incoming and outgoing anti-dependencies)")));
        }
    }

    /** A batch of the check started before this term (below the floor), or -1. */
    private long beforeTerm(PivotMessages.Check c) {
        if (c.batch() < floor) {
            return c.batch();
        }
        for (long b : c.edges()) {
            if (b < floor) {
                return b;
            }
        }
        return -1;
    }

    /**
     * The batch the check's edges would make (or find) a pivot — its own or an edge's endpoint — or null. Only a check
     * that passes applies its edges ({@link #apply}): a refused transaction aborts, so the edges it found vanish with
     * it (its read is undone, or its write never becomes visible). Recording them anyway would leave a batch marked a
     * pivot by an edge that does not exist and refuse every later transaction with an edge to it until the batch is
     * forgotten (docs/mechanisms.md, SSI).
     */
    private String pivotWith(PivotMessages.Check c) {
        long[] e = c.edges();
        if (flagsWith(c.batch(), e) == (IN | OUT)) {
            return "its own batch " + c.batch();
        }
        for (long b : e) {
            if (flagsWith(b, e) == (IN | OUT)) {
                return "batch " + b;
            }
        }
        return null;
    }

    /** {@code batch}'s flags with the edges {@code e} (reader, writer pairs) added. */
    private int flagsWith(long batch, long[] e) {
        Entry en = batches.get(batch);
        int f = en == null ? 0 : en.flags;
        for (int i = 0; i + 1 < e.length; i += 2) {
            f |= (e[i] == batch ? OUT : 0) | (e[i + 1] == batch ? IN : 0);
        }
        return f;
    }

    private void apply(PivotMessages.Check c) {
        long[] e = c.edges();
        touch(c.batch(), 0, c.cts());
        for (int i = 0; i + 1 < e.length; i += 2) {
            touch(e[i], OUT, c.cts());
            touch(e[i + 1], IN, c.cts());
        }
    }

    private void touch(long batch, int flag, long cts) {
        Entry en = batches.computeIfAbsent(batch, b -> new Entry());
        en.flags |= flag;
        en.end = Math.max(en.end, cts);
    }
}
