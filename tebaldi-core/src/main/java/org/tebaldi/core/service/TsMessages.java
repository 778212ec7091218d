package org.tebaldi.core.service;

/**
 * Messages of the {@link TimestampService}, carried inside {@link org.tebaldi.core.cc.CcEnvelope}s so replies
 * reach the CC part that asked. Timestamps are positive longs, strictly increasing across all requests. A message
 * may be lost with a dropped connection and is never resent by the transport, so the client ({@link TsClient})
 * asks every unanswered request again under the same request id (a repeated {@link OpenBatch} is answered with
 * the batch it registered, a repeated {@link AwaitBelow} joins its first wait), and reconciles the batches it
 * opened with {@link Sync} (a lost {@link FinishBatch} or {@link Forget}).
 */
public final class TsMessages {
    private TsMessages() {
    }

    /** Asks for one fresh timestamp. */
    public record Next(long reqId) {
    }

    /**
     * Asks for a fresh timestamp that starts a batch of CC node {@code ccNode}; the batch stays registered as
     * unfinished until {@link FinishBatch} (dissertation §4.4.3, §4.4.4 batching). Idempotent: asked again with
     * the same {@code reqId} (unique per sender, {@link org.tebaldi.core.cc.CcServices#newRequestId}) while the
     * batch it opened is unfinished, it is answered with that batch's timestamp.
     */
    public record OpenBatch(long reqId, int ccNode) {
    }

    /** A batch of {@code ccNode} started at {@code ts} has closed and all its members finished. */
    public record FinishBatch(int ccNode, long ts) {
    }

    /**
     * The sender dropped its part of CC node {@code ccNode} (a partial restart rebuilt its CC module, or an online
     * update retired the node) after every transaction of that part ended: each batch of {@code ccNode} the sender
     * opened and has not finished is finished now. Without it, a batch whose timestamp reply reached the part that
     * replaced the one that asked (or no part at all) stays registered for ever and every later "all batches below
     * ts finished" wait at that node id hangs. Sent on the same link after the part's last request, so every batch
     * it opened is registered by then.
     */
    public record Forget(int ccNode) {
    }

    /** Asks to be told once every registered batch of {@code ccNode} with a timestamp below {@code ts} finished. */
    public record AwaitBelow(long reqId, int ccNode, long ts) {
    }

    /**
     * The sender's whole view of the batches it opened at CC node {@code ccNode}: {@code held}, the timestamps of
     * those it holds open, and {@code asked}, the request ids of its {@link OpenBatch} requests still unanswered.
     * Every other batch the sender opened at that node is finished — its {@link FinishBatch} or {@link Forget} was
     * lost with a dropped connection, or its {@link Issued} was and the part that asked is gone. Sent after every
     * request it accounts for on the same FIFO link, so a batch registered by a request sent later is untouched.
     * Answered with {@link Synced}.
     */
    public record Sync(long reqId, int ccNode, long[] held, long[] asked) {
    }

    /** Asks for the watermark of {@code ccNode} (or of all nodes when {@code ccNode < 0}). */
    public record GetWatermark(long reqId, int ccNode) {
    }

    /** Reply to {@link Next} and {@link OpenBatch}. */
    public record Issued(long reqId, long ts) {
    }

    /** Reply to {@link AwaitBelow}. */
    public record BelowDone(long reqId) {
    }

    /** Reply to {@link Sync}: the sender's batches at that node are as its view said. */
    public record Synced(long reqId) {
    }

    /**
     * Reply to {@link GetWatermark}: every unfinished batch (of the node asked for) has a timestamp at least
     * {@code watermark}; with no unfinished batch it is the next timestamp to be issued.
     */
    public record Watermark(long reqId, long watermark) {
    }
}
