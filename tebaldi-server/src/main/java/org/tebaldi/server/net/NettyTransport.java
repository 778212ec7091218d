package org.tebaldi.server.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.runtime.ControlMessage;
import org.tebaldi.core.runtime.Inbox;
import org.tebaldi.core.runtime.MessageStats;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Transport;

/**
 * The Netty implementation of the transport SPI (docs/architecture.md, "Runtime") for process and cluster mode: TCP connections
 * carrying length-prefixed binary frames ({@link Frames}) whose messages are encoded by the hand-written codecs of
 * the {@link CodecRegistry}. Messages for nodes of this process go straight to the local inbox; others go to the
 * per-node {@link Peer} link (bounded queue, write batching, writability backpressure, reconnects), addressed
 * through the {@link Directory}. Messages to a node the directory reports down are dropped and counted.
 * Protocol messages are counted in the {@link MessageStats} when sent; {@link ControlMessage}s are not.
 * Delivery is FIFO per (sender, receiver) pair while a connection lasts; messages in a connection that breaks
 * may be lost (there is no retransmission above TCP). Buffers come from Netty's {@link PooledByteBufAllocator};
 * frames are encoded straight into them and decoded from them. A node process runs its actors on the transport's
 * own event loop ({@link #singleLoop}), so a frame is decoded, handled and answered on one thread, and everything
 * a turn sent to one peer leaves in one write and one flush.
 */
public final class NettyTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(NettyTransport.class);
    private final Inbox inbox;
    private final Predicate<NodeId> isLocal;
    private final MessageStats messageStats;
    private final CodecRegistry registry;
    private final CodecContext context;
    private final Directory directory;
    private final NettyOptions options;
    private final String processName;
    private final TransportStats stats = new TransportStats();
    private final Rejections rejections;
    private final EventLoopGroup group;
    private final ConcurrentHashMap<NodeId, Peer> peers = new ConcurrentHashMap<>();
    private final ThreadLocal<ByteBufEncoder> encoders;
    private volatile Channel server;
    private volatile boolean closed;

    /**
     * @param inbox       where received messages (and local ones) are delivered
     * @param isLocal     whether a node runs in this process (e.g. {@code EmbeddedRuntime::hosts})
     * @param stats       per-class counters of protocol messages sent
     * @param registry    the codecs; peers must have the same fingerprint
     * @param context     the catalog for decoding rows
     * @param directory   where remote nodes listen
     * @param processName this process's name for logs and the hello frame, e.g. {@code ds0}
     */
    public NettyTransport(Inbox inbox, Predicate<NodeId> isLocal, MessageStats stats, CodecRegistry registry,
                          CodecContext context, Directory directory, NettyOptions options, String processName) {
        this(inbox, isLocal, stats, registry, context, directory, options, processName,
                new NioEventLoopGroup(options.ioThreads(), new DefaultThreadFactory("tebaldi-net", true)));
    }

    /**
     * As above, on the given event loops (e.g. {@link #singleLoop}, whose loop also runs the node's actors); the
     * transport owns {@code group} and shuts it down on {@link #close}. {@code options.ioThreads()} is not used.
     */
    public NettyTransport(Inbox inbox, Predicate<NodeId> isLocal, MessageStats stats, CodecRegistry registry,
                          CodecContext context, Directory directory, NettyOptions options, String processName,
                          EventLoopGroup group) {
        this.inbox = inbox;
        this.isLocal = isLocal;
        this.messageStats = stats;
        this.registry = registry;
        this.context = context;
        this.directory = directory;
        this.options = options;
        this.processName = processName;
        this.rejections = new Rejections(processName);
        this.group = group;
        this.encoders = ThreadLocal.withInitial(() -> new ByteBufEncoder(registry));
        directory.onChange(node -> {
            Peer p = peers.get(node);
            if (p != null) {
                p.directoryChanged();
            }
        });
    }

    /**
     * Starts listening.
     *
     * @param host interface to bind, e.g. {@code 127.0.0.1} (loopback) or {@code 0.0.0.0}
     * @param port TCP port, 0 for an ephemeral one
     * @return the bound address (with the actual port)
     * @throws IllegalStateException if the port cannot be bound
     */
    public InetSocketAddress bind(String host, int port) {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, marks())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        pipeline(ch, null);
                    }
                });
        try {
            server = b.bind(host, port).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding " + host + ":" + port, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void send(NodeId from, NodeId to, Object msg) {
        if (!(msg instanceof ControlMessage)) {
            messageStats.record(msg);
        }
        if (isLocal.test(to)) {
            inbox.deliver(from, to, msg);
            return;
        }
        if (directory.isDown(to) && directory.addressOf(to) == null) {
            stats.dropped.increment();
            return;
        }
        peers.computeIfAbsent(to, n -> new Peer(n, this)).enqueue(from, msg);
    }

    /**
     * One event-loop thread (daemon, named {@code tebaldi-net-<name>}) for a node process: pass it to the
     * transport and its {@code next()} to {@link org.tebaldi.core.runtime.EmbeddedRuntime#EmbeddedRuntime(
     * java.util.concurrent.Executor, java.util.function.Function)} so I/O and actors share the thread.
     */
    public static EventLoopGroup singleLoop(String name) {
        return new NioEventLoopGroup(1, new DefaultThreadFactory("tebaldi-net-" + name, true));
    }

    /** Transport counters (frames, bytes, flushes, drops, connects). */
    public TransportStats transportStats() {
        return stats;
    }

    /** Messages waiting in the send queue for {@code node} (0 if none or never contacted). */
    public int queued(NodeId node) {
        Peer p = peers.get(node);
        return p == null ? 0 : p.queued();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        LOG.info("{}: transport closing: {}", processName, stats);
        peers.values().forEach(Peer::close);
        Channel s = server;
        if (s != null) {
            s.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }

    // ---- used by Peer and InboundHandler -------------------------------------------------------------------

    TransportStats stats() {
        return stats;
    }

    NettyOptions options() {
        return options;
    }

    Directory directory() {
        return directory;
    }

    EventLoopGroup group() {
        return group;
    }

    boolean closed() {
        return closed;
    }

    Bootstrap bootstrap(Peer peer) {
        return new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 3000)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, marks())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        pipeline(ch, peer);
                    }
                });
    }

    Rejections rejections() {
        return rejections;
    }

    /**
     * Sets up a new connection's pipeline: with TLS on, its {@code SslHandler} first (accepting or connecting),
     * then the frame splitter and the handshake and frame handler; {@code peer} is the outgoing link, or null for
     * an accepted connection.
     */
    private void pipeline(SocketChannel ch, Peer peer) {
        NodeTls tls = options.tls();
        if (tls != null) {
            ch.pipeline().addLast(InboundHandler.TLS,
                    peer == null ? tls.acceptor(ch.alloc()) : tls.connector(ch.alloc()));
        }
        ch.pipeline().addLast(InboundHandler.SPLITTER, Frames.splitter(Frames.HANDSHAKE_MAX_FRAME))
                .addLast(new InboundHandler(this, peer));
    }

    /** Writes the hello answering {@code nonce} (fingerprint, name, HMAC under the cluster secret). */
    void writeHello(ByteBuf buf, byte[] nonce) {
        int at = Frames.begin(buf, Frames.HELLO);
        ByteBufEncoder e = encoders.get().into(buf);
        e.writeLong(registry.fingerprint());
        e.writeString(processName);
        byte[] mac = options.secret().mac(nonce, registry.fingerprint(), processName);
        e.writeRaw(mac, 0, mac.length);
        Frames.end(buf, at);
    }

    /**
     * Null if the hello answers {@code nonce} with the cluster secret and the same codecs, else the problem.
     *
     * @throws org.tebaldi.core.codec.CodecException if the frame is not a hello
     */
    String checkHello(ByteBuf frame, byte[] nonce) {
        ByteBufDecoder d = new ByteBufDecoder(registry, context, frame);
        long fp = d.readLong();
        String who = d.readString();
        byte[] mac = new byte[ClusterSecret.MAC_BYTES];
        d.readRaw(mac);
        if (who == null || d.remaining() != 0) {
            return "malformed hello (" + (who == null ? "no name" : d.remaining() + " byte(s) too many") + ")";
        }
        if (!options.secret().verify(nonce, fp, who, mac)) {
            return "'" + who + "' is not a member of this cluster (its hello does not prove the cluster secret): "
                    + "start every node of a cluster against the same ZooKeeper cluster config";
        }
        if (fp != registry.fingerprint()) {
            return who + " has other codecs (registry fingerprint " + Long.toHexString(fp) + ", here "
                    + Long.toHexString(registry.fingerprint()) + "): run the same jar on every node";
        }
        return null;
    }

    void writeMessage(ByteBuf buf, NodeId from, NodeId to, Object msg) {
        int at = Frames.begin(buf, Frames.MESSAGE);
        ByteBufEncoder e = encoders.get().into(buf);
        Frames.writeNode(e, from);
        Frames.writeNode(e, to);
        e.writeValue(msg);
        Frames.end(buf, at);
        if (buf.writerIndex() - at > Frames.MAX_FRAME) {
            throw new IllegalArgumentException("message of " + (buf.writerIndex() - at) + " bytes exceeds the "
                    + Frames.MAX_FRAME + "-byte frame limit");
        }
    }

    /**
     * Decodes a message frame (after its kind byte) and delivers it.
     *
     * @throws RuntimeException (usually {@link org.tebaldi.core.codec.CodecException}) if the frame is not exactly
     *                          one non-null message; the caller closes the connection
     */
    void receive(ByteBuf frame) {
        ByteBufDecoder d = new ByteBufDecoder(registry, context, frame);
        NodeId from = Frames.readNode(d);
        NodeId to = Frames.readNode(d);
        Object msg = d.readValue();
        if (msg == null || d.remaining() != 0) {
            throw new org.tebaldi.core.codec.CodecException(msg == null ? "a null message"
                    : d.remaining() + " byte(s) after the message");
        }
        stats.received.increment();
        inbox.deliver(from, to, msg);
    }

    private WriteBufferWaterMark marks() {
        return new WriteBufferWaterMark(options.lowWaterMark(), options.highWaterMark());
    }

}
