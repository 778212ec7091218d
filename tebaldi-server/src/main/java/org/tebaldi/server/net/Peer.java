package org.tebaldi.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.runtime.NodeId;

/**
 * The outgoing link to one remote node: a bounded queue of messages not yet written, and the connection.
 * Senders (actor threads) only enqueue and, if needed, schedule one drain task on the channel's event loop; the
 * drain encodes everything queued into a few large buffers and flushes once (write batching: one flush per
 * event-loop turn, not per message). An actor running on that event loop (process mode) schedules the drain
 * without waking any thread: it runs after the actor's batch, in the same turn. While the channel is unwritable (its outbound buffer above the high water
 * mark) or not connected, messages wait in the queue; when the queue holds {@code queueBound} messages, further
 * ones are dropped and counted — the sender is never blocked (see docs/cluster.md "Process mode": timeouts then end the
 * transactions concerned). Connects lazily on the first message, answers the node's challenge with the hello
 * ({@link Frames}; messages wait until then), reconnects with exponential back-off while messages wait, and follows
 * the {@link Directory} when the node moves or leaves.
 */
final class Peer {
    private static final Logger LOG = LoggerFactory.getLogger(Peer.class);
    private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * First capacity of a drain's buffer, bytes: small enough for the pooled allocator's per-thread cache (a
     * 64 KiB buffer is not cached and is taken from the shared arena every time); the buffer grows as frames are
     * written, up to about {@code batchBytes} before it is written out.
     */
    private static final int FIRST_CAPACITY = 4096;

    private record Outbound(NodeId from, Object msg) {
    }

    private final NodeId node;
    private final NettyTransport transport;
    private final ConcurrentLinkedQueue<Outbound> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private volatile Channel channel;
    /** The connection doing its handshake, or null. */
    private Channel pending;
    private InetSocketAddress address;
    private boolean connecting;
    private boolean reconnectPending;
    private long backoffMillis;
    private volatile long lastDropLog;

    Peer(NodeId node, NettyTransport transport) {
        this.node = node;
        this.transport = transport;
        this.backoffMillis = transport.options().reconnectMinMillis();
    }

    /** Queues a message (any thread); never blocks. */
    void enqueue(NodeId from, Object msg) {
        if (size.incrementAndGet() > transport.options().queueBound()) {
            size.decrementAndGet();
            dropped(1, "its send queue is full (" + transport.options().queueBound() + " messages)");
            return;
        }
        queue.offer(new Outbound(from, msg));
        kick();
    }

    /** Messages waiting to be written. */
    int queued() {
        return size.get();
    }

    /** Schedules a drain if connected and writable, or starts connecting. */
    void kick() {
        Channel ch = channel;
        if (ch != null && ch.isActive()) {
            if (ch.isWritable() && !queue.isEmpty() && drainScheduled.compareAndSet(false, true)) {
                ch.eventLoop().execute(this::drain);
            }
        } else if (!queue.isEmpty()) {
            connect();
        }
    }

    /** The directory changed for this node: follow a move, drop everything if it left. */
    void directoryChanged() {
        InetSocketAddress now = transport.directory().addressOf(node);
        Channel ch;
        Channel handshaking = null;
        synchronized (this) {
            boolean moved = now == null || !now.equals(address);
            ch = channel;
            if (ch != null && moved) {
                channel = null;
            } else {
                ch = null;
            }
            if (moved) {
                handshaking = pending; // closing it ends the attempt (closed() then reconnects if messages wait)
            }
        }
        if (ch != null) {
            ch.close();
        }
        if (handshaking != null) {
            handshaking.close();
        }
        if (now == null && transport.directory().isDown(node)) {
            dropAll("it is down");
        } else {
            kick();
        }
    }

    private void connect() {
        InetSocketAddress a;
        synchronized (this) {
            if (connecting || reconnectPending || transport.closed() || (channel != null && channel.isActive())) {
                return;
            }
            a = transport.directory().addressOf(node);
            if (a == null) {
                if (transport.directory().isDown(node)) {
                    connecting = false;
                } else {
                    return; // not registered yet: the directory listener kicks us when it is
                }
            } else {
                connecting = true;
                address = a;
            }
        }
        if (a == null) {
            dropAll("it is down");
            return;
        }
        transport.bootstrap(this).connect(a).addListener((ChannelFuture f) -> connected(f, a));
    }

    private void connected(ChannelFuture f, InetSocketAddress a) {
        if (!f.isSuccess()) {
            synchronized (this) {
                connecting = false;
            }
            LOG.debug("connect to {} at {} failed: {}", node, a, f.cause().toString());
            retryLater();
            return;
        }
        Channel ch = f.channel();
        synchronized (this) {
            pending = ch;
        }
        ch.closeFuture().addListener(x -> closed(ch));
    }

    /**
     * The handshake of {@code ch} is done (its challenge answered, on its event loop): messages may flow. Until
     * then the link counts as connecting and messages wait in the queue.
     */
    void ready(Channel ch) {
        synchronized (this) {
            if (pending == ch) {
                pending = null;
            }
            connecting = false;
            channel = ch;
            backoffMillis = transport.options().reconnectMinMillis();
        }
        transport.stats().connects.increment();
        kick();
    }

    private void closed(Channel ch) {
        synchronized (this) {
            if (channel == ch) {
                channel = null;
            }
            if (pending == ch) {
                pending = null;
                connecting = false; // closed during the handshake
            }
        }
        if (!queue.isEmpty()) {
            retryLater();
        }
    }

    private void retryLater() {
        long delay;
        synchronized (this) {
            if (reconnectPending || transport.closed()) {
                return;
            }
            reconnectPending = true;
            delay = backoffMillis;
            backoffMillis = Math.min(backoffMillis * 2, transport.options().reconnectMaxMillis());
        }
        transport.group().schedule(() -> {
            synchronized (this) {
                reconnectPending = false;
            }
            kick();
        }, delay, TimeUnit.MILLISECONDS);
    }

    /** Runs on the channel's event loop: writes everything queued (while writable), then flushes once. */
    private void drain() {
        drainScheduled.set(false);
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            return;
        }
        int batch = transport.options().batchBytes();
        ByteBuf buf = null;
        int frames = 0;
        long bytes = 0;
        Outbound m;
        while ((m = queue.poll()) != null) {
            size.decrementAndGet();
            if (buf == null) {
                buf = ch.alloc().ioBuffer(Math.min(batch, FIRST_CAPACITY));
            }
            int at = buf.writerIndex();
            try {
                transport.writeMessage(buf, m.from, node, m.msg);
                frames++;
            } catch (CodecException | IllegalArgumentException e) {
                buf.writerIndex(at);
                transport.stats().dropped.increment();
                LOG.error("cannot send {} from {} to {}: {}", m.msg.getClass().getSimpleName(), m.from, node,
                        e.getMessage());
                continue;
            }
            if (buf.readableBytes() >= batch) {
                bytes += buf.readableBytes();
                ch.write(buf, ch.voidPromise());
                buf = null;
                if (!ch.isWritable()) {
                    break; // resumed by channelWritabilityChanged
                }
            }
        }
        if (buf != null) {
            if (buf.isReadable()) {
                bytes += buf.readableBytes();
                ch.write(buf, ch.voidPromise());
            } else {
                buf.release();
            }
        }
        if (frames > 0) {
            ch.flush();
            transport.stats().flushes.increment();
            transport.stats().frames.add(frames);
            transport.stats().bytes.add(bytes);
        }
    }

    private void dropAll(String why) {
        int n = 0;
        while (queue.poll() != null) {
            size.decrementAndGet();
            n++;
        }
        if (n > 0) {
            dropped(n, why);
        }
    }

    private void dropped(int n, String why) {
        transport.stats().dropped.add(n);
        long now = System.nanoTime();
        if (now - lastDropLog > LOG_EVERY_NANOS) {
            lastDropLog = now;
            LOG.warn("dropped {} message(s) to {}: {}", n, node, why);
        }
    }

    /** Closes the connection (transport shutdown). */
    void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }
}
