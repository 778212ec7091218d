package org.tebaldi.core.service;

import java.util.HashMap;
import java.util.function.LongConsumer;
import org.tebaldi.core.cc.CcServices;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/**
 * What a CC part uses to talk to the {@link TimestampService}: asynchronous requests with callbacks, run on the
 * part's node. The part forwards its {@code onMessage} payloads to {@link #handle}.
 */
public final class TsClient {
    /** Address of the timestamp service. */
    public static final NodeId SERVICE = new NodeId(Role.TS, 0);

    private final CcServices node;
    private final int ccNode;
    private final HashMap<Long, LongConsumer> pending = new HashMap<>();
    /** The newest term of the service seen in a reply (timestamps of term e are at least e·2⁴⁰). */
    private long term;
    /** The re-ask timers of outstanding watermark requests. */
    private final HashMap<Long, org.tebaldi.core.runtime.Cancellable> retries = new HashMap<>();
    private long nextReq;

    /** @param ccNode id of the CC tree node whose part this client serves (replies are routed back to it) */
    public TsClient(CcServices node, int ccNode) {
        this.node = node;
        this.ccNode = ccNode;
    }

    /** Requests a fresh timestamp; {@code onTs} runs on this node when it arrives. */
    public void next(LongConsumer onTs) {
        long r = ++nextReq;
        pending.put(r, onTs);
        node.send(SERVICE, ccNode, new TsMessages.Next(r));
    }

    /** Requests a fresh timestamp registered as an unfinished batch of this CC node. */
    public void openBatch(LongConsumer onTs) {
        long r = ++nextReq;
        pending.put(r, onTs);
        node.send(SERVICE, ccNode, new TsMessages.OpenBatch(r, ccNode));
    }

    /** Marks this node's batch {@code ts} as finished. */
    public void finishBatch(long ts) {
        node.send(SERVICE, ccNode, new TsMessages.FinishBatch(ccNode, ts));
    }

    /**
     * The part this client serves is being dropped (partial restart or retired node) and none of its transactions
     * runs any more: tells the service to finish every batch this node opened at this CC node and not finished
     * ({@link TsMessages.Forget}) — including batches whose timestamp is still on its way back, as the request went
     * ahead on the same link — and forgets the outstanding requests (their replies now reach another part or none).
     */
    public void forget() {
        node.send(SERVICE, ccNode, new TsMessages.Forget(ccNode));
        pending.clear();
        retries.values().forEach(org.tebaldi.core.runtime.Cancellable::cancel);
        retries.clear();
    }

    /** Runs {@code then} once every batch of this CC node below {@code ts} finished. */
    public void awaitBelow(long ts, Runnable then) {
        long r = ++nextReq;
        pending.put(r, x -> then.run());
        node.send(SERVICE, ccNode, new TsMessages.AwaitBelow(r, ccNode, ts));
    }

    /**
     * Requests the watermark of this CC node ({@code allNodes}: of every node). Asked again after each wait timeout
     * ({@code CcServices#waitTimeoutMicros}) without an answer — a reply lost with a dropped connection or a failed
     * service must not stop the garbage-collection loops that poll it; asking twice is harmless.
     */
    public void watermark(boolean allNodes, LongConsumer onWatermark) {
        long r = ++nextReq;
        pending.put(r, onWatermark);
        node.send(SERVICE, ccNode, new TsMessages.GetWatermark(r, allNodes ? -1 : ccNode));
        retries.put(r, node.schedule(node.waitTimeoutMicros(), () -> {
            retries.remove(r);
            LongConsumer c = pending.remove(r);
            if (c != null) {
                watermark(allNodes, c);
            }
        }));
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

    /**
     * Handles a reply; returns false if {@code payload} is not a timestamp-service reply (the part handles it
     * itself).
     */
    public boolean handle(Object payload) {
        LongConsumer c;
        if (payload instanceof TsMessages.Issued i) {
            term = Math.max(term, i.ts() >> TimestampService.TERM_SHIFT);
        } else if (payload instanceof TsMessages.Watermark w) {
            term = Math.max(term, w.watermark() >> TimestampService.TERM_SHIFT);
        }
        if (payload instanceof TsMessages.Issued i) {
            c = pending.remove(i.reqId());
            if (c != null) {
                c.accept(i.ts());
            } else {
                // a reply to a client that is gone (its part was rebuilt after a service failure): if it opened a
                // batch, nobody will finish it, and a batch registered forever would hold back every watermark and
                // batch-order wait; finishing a plain timestamp is a no-op at the service
                finishBatch(i.ts());
            }
            return true;
        }
        if (payload instanceof TsMessages.BelowDone b) {
            c = pending.remove(b.reqId());
            if (c != null) {
                c.accept(0);
            }
            return true;
        }
        if (payload instanceof TsMessages.Watermark w) {
            org.tebaldi.core.runtime.Cancellable retry = retries.remove(w.reqId());
            if (retry != null) {
                retry.cancel();
            }
            c = pending.remove(w.reqId());
            if (c != null) {
                c.accept(w.watermark());
            }
            return true;
        }
        return false;
    }
}
