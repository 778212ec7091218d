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
 * docs/mechanisms.md). A batch is forgotten once the timestamp service's watermark (the oldest start of a batch
 * still running) passes the last commit timestamp of its members and of the checks that touched it: no snapshot
 * that misses its writes, and no read mark of its members, can remain.
 */
public final class BatchManager implements Actor {
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

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
        ctx.schedule(GC_MICROS, this::gc);
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
        if (env.payload() instanceof TsMessages.Watermark w) {
            for (Iterator<Map.Entry<Long, Entry>> it = batches.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Long, Entry> e = it.next();
                if (e.getKey() < w.watermark() && e.getValue().end < w.watermark()) {
                    it.remove();
                }
            }
        } else if (env.payload() instanceof PivotMessages.Check c) {
            long[] e = c.edges();
            touch(c.batch(), 0, c.cts());
            for (int i = 0; i + 1 < e.length; i += 2) {
                touch(e[i], OUT, c.cts());
                touch(e[i + 1], IN, c.cts());
            }
            String pivot = pivot(c.batch()) ? "its own batch " + c.batch() : null;
            for (int i = 0; pivot == null && i < e.length; i++) {
                if (pivot(e[i])) {
                    pivot = "batch " + e[i];
                }
            }
            ctx.send(from, new CcEnvelope(env.ccNode(), new PivotMessages.Verdict(c.reqId(), pivot != null,
                    pivot == null ? null : "ssi: " + pivot + " is a pivot (incoming and outgoing anti-dependencies)")));
        }
    }

    private void touch(long batch, int flag, long cts) {
        Entry en = batches.computeIfAbsent(batch, b -> new Entry());
        en.flags |= flag;
        en.end = Math.max(en.end, cts);
    }

    private boolean pivot(long batch) {
        Entry en = batches.get(batch);
        return en != null && en.flags == (IN | OUT);
    }
}
