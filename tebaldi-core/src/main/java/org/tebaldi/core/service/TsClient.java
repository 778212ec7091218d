package org.tebaldi.core.service;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongConsumer;
import org.tebaldi.core.cc.CcServices;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/**
 * What a CC part uses to talk to the {@link TimestampService}: asynchronous requests with callbacks, run on the
 * part's node. The part forwards its {@code onMessage} payloads to {@link #handle}.
 *
 * <p>A connection that drops loses the messages in flight and the transport never resends them (docs/simulation.md,
 * "Faults"), so the client recovers on its own, on one timer per client that ticks every wait timeout
 * ({@link CcServices#waitTimeoutMicros}) while something is outstanding: a request unanswered for a whole period
 * is asked again under the same request id (idempotent at the service, {@link TsMessages}); and after it finished a
 * batch the client sends its whole view of its batches ({@link TsMessages.Sync}: the batches it holds open, its
 * unanswered batch requests), again at every tick until the service acknowledged a view sent after its last
 * finish. Without them, a lost {@link TsMessages.Issued} or {@link TsMessages.FinishBatch} left a batch registered
 * for ever — and every "all batches below ts finished" wait of its CC node (TSO's commit in batch order) with it
 * (burn seeds 4802, 5201). Request ids come from {@link CcServices#newRequestId}, unique on the node, so a reply to
 * a dropped part's request is never taken for its replacement's.
 */
public final class TsClient {
    /** Address of the timestamp service. */
    public static final NodeId SERVICE = new NodeId(Role.TS, 0);

    /** A request not answered yet, and the tick count when it was last sent. */
    private static final class Pending {
        final Object message;
        final LongConsumer onReply;
        long sentInTick;

        Pending(Object message, LongConsumer onReply, long sentInTick) {
            this.message = message;
            this.onReply = onReply;
            this.sentInTick = sentInTick;
        }
    }

    private final CcServices node;
    private final int ccNode;
    /** Requests not answered yet, by request id, in the order first sent. */
    private final LinkedHashMap<Long, Pending> pending = new LinkedHashMap<>();
    /** Batches this client opened (their timestamp arrived) and has not finished. */
    private final TreeSet<Long> held = new TreeSet<>();
    /** The newest term of the service seen in a reply (timestamps of term e are at least e·2⁴⁰). */
    private long term;
    /** A batch was finished since the last {@link TsMessages.Sync} was sent. */
    private boolean finishedSinceSync;
    /** The request id of the last {@link TsMessages.Sync} sent and not acknowledged, 0 if none. */
    private long syncAwaited;
    private Cancellable timer;
    /** Ticks of the timer so far (requests are aged in ticks, not by the clock, which a skew may set back). */
    private long ticks;
    private boolean forgotten;

    /** @param ccNode id of the CC tree node whose part this client serves (replies are routed back to it) */
    public TsClient(CcServices node, int ccNode) {
        this.node = node;
        this.ccNode = ccNode;
    }

    /** Requests a fresh timestamp; {@code onTs} runs on this node when it arrives. */
    public void next(LongConsumer onTs) {
        long r = node.newRequestId();
        ask(r, new TsMessages.Next(r), onTs);
    }

    /**
     * Requests a fresh timestamp registered as an unfinished batch of this CC node; {@code onTs} runs on this node
     * when it arrives, and from then on this client holds the batch until {@link #finishBatch}.
     */
    public void openBatch(LongConsumer onTs) {
        long r = node.newRequestId();
        ask(r, new TsMessages.OpenBatch(r, ccNode), onTs);
    }

    /** Marks this node's batch {@code ts} as finished. */
    public void finishBatch(long ts) {
        held.remove(ts);
        node.send(SERVICE, ccNode, new TsMessages.FinishBatch(ccNode, ts));
        finishedSinceSync = true;
        arm();
    }

    /**
     * The part this client serves is being dropped (partial restart or retired node) and none of its transactions
     * runs any more: tells the service to finish every batch this node opened at this CC node and not finished
     * ({@link TsMessages.Forget}) — including batches whose timestamp is still on its way back, as the request went
     * ahead on the same link — and forgets the outstanding requests (their replies now reach another part or none).
     * Should the Forget be lost, the next {@link TsMessages.Sync} of a part of this CC node here finishes them.
     */
    public void forget() {
        node.send(SERVICE, ccNode, new TsMessages.Forget(ccNode));
        forgotten = true;
        pending.clear();
        held.clear();
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    /** Runs {@code then} once every batch of this CC node below {@code ts} finished. */
    public void awaitBelow(long ts, Runnable then) {
        long r = node.newRequestId();
        ask(r, new TsMessages.AwaitBelow(r, ccNode, ts), x -> then.run());
    }

    /**
     * Requests the watermark of this CC node ({@code allNodes}: of every node). Like every request, asked again
     * after each wait timeout without an answer: a reply lost with a dropped connection or a failed service must
     * not stop the garbage-collection loops that poll it.
     */
    public void watermark(boolean allNodes, LongConsumer onWatermark) {
        long r = node.newRequestId();
        ask(r, new TsMessages.GetWatermark(r, allNodes ? -1 : ccNode), onWatermark);
    }

    /**
     * The first timestamp of the newest term of the timestamp service this client has heard from (0 before any
     * re-election). A timestamp below it was issued by a failed earlier term, whose registry of unfinished batches
     * died with it: the new term's watermark does not account for that transaction, so versions it needs may be
     * pruned — a part that has heard of the new term must refuse it (coordinators abort such transactions anyway
     * when they learn of the failure).
     */
    public long termFloor() {
        return term << TimestampService.TERM_SHIFT;
    }

    private void ask(long reqId, Object message, LongConsumer onReply) {
        pending.put(reqId, new Pending(message, onReply, ticks));
        node.send(SERVICE, ccNode, message);
        arm();
    }

    private void arm() {
        if (timer == null && !forgotten) {
            timer = node.schedule(node.waitTimeoutMicros(), this::tick);
        }
    }

    /**
     * Every wait timeout while something is outstanding: asks again what has been unanswered for a whole period —
     * sent before the previous tick, so for one to two wait timeouts (same request ids; in the order first asked) —
     * then sends the view of this client's batches if a batch was finished since the last view or the last view is
     * unacknowledged.
     */
    private void tick() {
        timer = null;
        ticks++;
        for (Pending p : pending.values()) {
            if (p.sentInTick < ticks - 1) {
                p.sentInTick = ticks;
                node.send(SERVICE, ccNode, p.message);
            }
        }
        if (finishedSinceSync || syncAwaited != 0) {
            List<Long> asked = new ArrayList<>();
            pending.forEach((r, p) -> {
                if (p.message instanceof TsMessages.OpenBatch) {
                    asked.add(r);
                }
            });
            syncAwaited = node.newRequestId();
            finishedSinceSync = false;
            node.send(SERVICE, ccNode, new TsMessages.Sync(syncAwaited, ccNode,
                    held.stream().mapToLong(Long::longValue).toArray(),
                    asked.stream().mapToLong(Long::longValue).toArray()));
        }
        if (!pending.isEmpty() || syncAwaited != 0) {
            arm();
        }
    }

    /**
     * Handles a reply; returns false if {@code payload} is not a timestamp-service reply (the part handles it
     * itself).
     */
    public boolean handle(Object payload) {
        if (payload instanceof TsMessages.Issued i) {
            term = Math.max(term, i.ts() >> TimestampService.TERM_SHIFT);
            Pending p = pending.remove(i.reqId());
            if (p == null) {
                // a reply asked twice, or to a client that is gone (its part was dropped): if it opened a batch,
                // nobody will finish it, and a batch registered forever would hold back every watermark and
                // batch-order wait; finishing a plain timestamp or a batch finished already is a no-op there
                if (!held.contains(i.ts())) {
                    finishBatch(i.ts());
                }
                return true;
            }
            if (p.message instanceof TsMessages.OpenBatch) {
                held.add(i.ts());
            }
            p.onReply.accept(i.ts());
            return true;
        }
        if (payload instanceof TsMessages.BelowDone b) {
            Pending p = pending.remove(b.reqId());
            if (p != null) {
                p.onReply.accept(0);
            }
            return true;
        }
        if (payload instanceof TsMessages.Watermark w) {
            term = Math.max(term, w.watermark() >> TimestampService.TERM_SHIFT);
            Pending p = pending.remove(w.reqId());
            if (p != null) {
                p.onReply.accept(w.watermark());
            }
            return true;
        }
        if (payload instanceof TsMessages.Synced s) {
            if (s.reqId() == syncAwaited) {
                syncAwaited = 0;
            }
            return true;
        }
        return false;
    }
}
