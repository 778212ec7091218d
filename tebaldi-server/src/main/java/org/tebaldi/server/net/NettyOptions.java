package org.tebaldi.server.net;

/**
 * Tuning of the Netty transport.
 *
 * @param ioThreads          event-loop threads for all connections (at least 1)
 * @param queueBound         per-peer bound on messages waiting to be written (while connecting, or while the channel
 *                           is not writable); a message sent when the bound is reached is dropped and counted
 * @param lowWaterMark       bytes in a channel's outbound buffer below which it turns writable again
 * @param highWaterMark      bytes above which it turns unwritable (writing pauses, messages wait in the queue)
 * @param reconnectMinMillis first reconnect delay, ms (doubling up to {@code reconnectMaxMillis})
 * @param reconnectMaxMillis longest reconnect delay, ms
 * @param batchBytes         frames are gathered into buffers of about this size before a write
 * @param secret             the cluster secret a connecting peer must prove it holds ({@link ClusterSecret#NONE}:
 *                           any peer speaking this protocol with the same codecs)
 * @param tls                mutual TLS on every connection, accepted and opened ({@code cluster.tls}, docs/cluster.md
 *                           "Security"): Netty's {@code SslHandler} first in each pipeline, the cluster-secret
 *                           handshake inside it; null (the default): plain TCP, no TLS handler at all
 */
public record NettyOptions(int ioThreads, int queueBound, int lowWaterMark, int highWaterMark,
                           long reconnectMinMillis, long reconnectMaxMillis, int batchBytes, ClusterSecret secret,
                           NodeTls tls) {
    /** @throws IllegalArgumentException on non-positive sizes, inconsistent marks or a null secret */
    public NettyOptions {
        if (ioThreads < 1 || queueBound < 1 || lowWaterMark < 1 || highWaterMark < lowWaterMark
                || reconnectMinMillis < 1 || reconnectMaxMillis < reconnectMinMillis || batchBytes < 256
                || secret == null) {
            throw new IllegalArgumentException("bad Netty options " + this);
        }
    }

    /** Options without TLS. */
    public NettyOptions(int ioThreads, int queueBound, int lowWaterMark, int highWaterMark,
                        long reconnectMinMillis, long reconnectMaxMillis, int batchBytes, ClusterSecret secret) {
        this(ioThreads, queueBound, lowWaterMark, highWaterMark, reconnectMinMillis, reconnectMaxMillis, batchBytes,
                secret, null);
    }

    /** Options without a cluster secret ({@link ClusterSecret#NONE}) and without TLS. */
    public NettyOptions(int ioThreads, int queueBound, int lowWaterMark, int highWaterMark,
                        long reconnectMinMillis, long reconnectMaxMillis, int batchBytes) {
        this(ioThreads, queueBound, lowWaterMark, highWaterMark, reconnectMinMillis, reconnectMaxMillis, batchBytes,
                ClusterSecret.NONE);
    }

    /**
     * Defaults: 2 I/O threads, 100,000 queued messages per peer, 1–4 MiB water marks, 50 ms–1 s reconnects, no
     * cluster secret, no TLS.
     */
    public static NettyOptions defaults() {
        return new NettyOptions(2, 100_000, 1 << 20, 4 << 20, 50, 1000, 64 << 10);
    }

    /** A copy with another queue bound. */
    public NettyOptions withQueueBound(int bound) {
        return new NettyOptions(ioThreads, bound, lowWaterMark, highWaterMark, reconnectMinMillis, reconnectMaxMillis,
                batchBytes, secret, tls);
    }

    /** A copy with other water marks. */
    public NettyOptions withWaterMarks(int low, int high) {
        return new NettyOptions(ioThreads, queueBound, low, high, reconnectMinMillis, reconnectMaxMillis, batchBytes,
                secret, tls);
    }

    /** A copy with another cluster secret (process mode: the one in the cluster manifest). */
    public NettyOptions withSecret(ClusterSecret s) {
        return new NettyOptions(ioThreads, queueBound, lowWaterMark, highWaterMark, reconnectMinMillis,
                reconnectMaxMillis, batchBytes, s, tls);
    }

    /** A copy with mutual TLS ({@code t}), or without it (null). */
    public NettyOptions withTls(NodeTls t) {
        return new NettyOptions(ioThreads, queueBound, lowWaterMark, highWaterMark, reconnectMinMillis,
                reconnectMaxMillis, batchBytes, secret, t);
    }
}
