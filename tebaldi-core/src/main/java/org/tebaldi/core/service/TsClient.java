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
     * Handles a reply; returns false if {@code payload} is not a timestamp-service reply (the part handles it
     * itself).
     */
    public boolean handle(Object payload) {
        LongConsumer c;
        if (payload instanceof TsMessages.Issued i) {
            c = pending.remove(i.reqId());
            if (c != null) {
                c.accept(i.ts());
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
