package org.tebaldi.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.codec.CodecException;

/**
 * Handles the frames of one connection (after the length-prefix splitter, {@link Frames#splitter}) and runs its
 * handshake. On an accepted connection: sends the {@link Frames#CHALLENGE}, checks the peer's {@link Frames#HELLO}
 * (cluster secret and codec registry), then raises the frame limit from {@link Frames#HANDSHAKE_MAX_FRAME} to
 * {@link Frames#MAX_FRAME} and hands decoded message frames to the local inbox. On an outgoing connection: answers
 * the challenge and tells its {@link Peer} the link is ready, then resumes the peer's drain whenever the channel
 * turns writable. Any breach of the protocol — a frame too long, of an unknown kind, before the hello, undecodable,
 * a wrong hello, no hello within {@link Frames#HANDSHAKE_MILLIS} — closes the connection through {@link Rejections}
 * (one rate-limited log line); nothing a rejected or not yet authenticated peer sent is delivered. With TLS on
 * ({@link NettyOptions#tls}) the transport's {@code SslHandler} runs before this handler: the challenge waits in it
 * until the TLS handshake is done, and a failed TLS handshake is rejected the same way, naming the cause.
 */
final class InboundHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(InboundHandler.class);
    /** Name of the splitter in the pipeline (replaced once the handshake is done). */
    static final String SPLITTER = "frames";
    /** Name of the TLS handler in the pipeline (first; only with {@code cluster.tls}). */
    static final String TLS = "tls";
    /** What a refused TLS handshake means, and the fix (docs/cluster.md, "Security"). */
    private static final String TLS_HINT = ": the peer is not a node of this TLS cluster (its certificate is not "
            + "issued by this cluster's CA, it sent none, or it speaks plain TCP); every node needs the ca.crt and "
            + "its own certificate from the credentials directory its runner wrote (--credentials DIR)";

    private final NettyTransport transport;
    private final Peer peer;
    private byte[] nonce;
    private boolean greeted;
    private boolean rejected;
    private ScheduledFuture<?> deadline;

    /** @param peer the outgoing link this channel serves, or null for an accepted connection */
    InboundHandler(NettyTransport transport, Peer peer) {
        this.transport = transport;
        this.peer = peer;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (peer == null) {
            nonce = ClusterSecret.nonce();
            ByteBuf b = ctx.alloc().ioBuffer(32);
            int at = Frames.begin(b, Frames.CHALLENGE);
            b.writeBytes(nonce);
            Frames.end(b, at);
            ctx.writeAndFlush(b, ctx.voidPromise());
        }
        deadline = ctx.executor().schedule(() -> {
            if (!greeted) {
                reject(ctx, "no handshake within " + Frames.HANDSHAKE_MILLIS + " ms");
            }
        }, Frames.HANDSHAKE_MILLIS, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (deadline != null) {
            deadline.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (rejected) {
                return;
            }
            if (!frame.isReadable()) {
                reject(ctx, "empty frame");
                return;
            }
            int kind = frame.readUnsignedByte();
            if (peer != null) {
                outgoing(ctx, kind, frame);
            } else if (!greeted) {
                hello(ctx, kind, frame);
            } else if (kind == Frames.MESSAGE) {
                transport.receive(frame);
            } else {
                reject(ctx, "frame of unknown kind " + kind);
            }
        } catch (RuntimeException e) {
            reject(ctx, "undecodable frame (" + (e instanceof CodecException ? e.getMessage()
                    : e.getClass().getSimpleName() + ": " + e.getMessage()) + ")");
        } finally {
            frame.release();
        }
    }

    private void hello(ChannelHandlerContext ctx, int kind, ByteBuf frame) {
        if (kind != Frames.HELLO) {
            reject(ctx, "frame of kind " + kind + " before the hello");
            return;
        }
        String problem = transport.checkHello(frame, nonce);
        if (problem != null) {
            reject(ctx, problem);
            return;
        }
        greeted = true;
        deadline.cancel(false);
        ctx.pipeline().replace(SPLITTER, SPLITTER, Frames.splitter(Frames.MAX_FRAME));
    }

    private void outgoing(ChannelHandlerContext ctx, int kind, ByteBuf frame) {
        if (greeted || kind != Frames.CHALLENGE || frame.readableBytes() != ClusterSecret.NONCE_BYTES) {
            reject(ctx, "expected one challenge of " + ClusterSecret.NONCE_BYTES + " bytes, got a frame of kind "
                    + kind + " (" + frame.readableBytes() + " bytes)" + (greeted ? " after it" : ""));
            return;
        }
        byte[] challenge = new byte[ClusterSecret.NONCE_BYTES];
        frame.readBytes(challenge);
        ByteBuf hello = ctx.alloc().ioBuffer(128);
        transport.writeHello(hello, challenge);
        ctx.writeAndFlush(hello, ctx.voidPromise());
        greeted = true;
        deadline.cancel(false);
        peer.ready(ctx.channel());
    }

    private void reject(ChannelHandlerContext ctx, String problem) {
        if (!rejected) {
            rejected = true;
            transport.stats().rejected.increment();
            transport.rejections().reject(ctx.channel(), problem);
        }
    }

    /** A failed TLS handshake (the peer's certificate refused, or ours by the peer) closes the connection. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent e && !e.isSuccess()) {
            reject(ctx, "TLS handshake failed (" + brief(e.cause()) + ")" + TLS_HINT);
        }
        ctx.fireUserEventTriggered(evt);
    }

    /** The innermost message of {@code t}, at most 200 characters (a record that is not TLS is dumped in hex). */
    private static String brief(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        String m = c.getClass().getSimpleName() + ": " + c.getMessage();
        return m.length() <= 200 ? m : m.substring(0, 200) + "...";
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (peer != null && greeted && ctx.channel().isWritable()) {
            peer.kick();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException && cause.getCause() instanceof SSLException) {
            reject(ctx, "TLS failure (" + brief(cause) + "): the peer refused this node's certificate or broke off the "
                    + "TLS session; every node of a TLS cluster needs the ca.crt and its own certificate from the "
                    + "credentials directory its runner wrote (--credentials DIR)");
        } else if (cause instanceof DecoderException) {
            reject(ctx, cause.getMessage());
        } else if (cause instanceof IOException) {
            LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        } else {
            transport.stats().errors.increment();
            LOG.error("connection {} failed unexpectedly", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }
}
