package org.tebaldi.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
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
 * (one rate-limited log line); nothing a rejected or not yet authenticated peer sent is delivered.
 */
final class InboundHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(InboundHandler.class);
    /** Name of the splitter in the pipeline (replaced once the handshake is done). */
    static final String SPLITTER = "frames";

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

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (peer != null && greeted && ctx.channel().isWritable()) {
            peer.kick();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
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
