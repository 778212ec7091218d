package org.tebaldi.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.codec.CodecException;

/**
 * Handles the frames of one connection (after the length-field frame decoder): checks the {@link Frames#HELLO}
 * of an accepted connection (a peer with another codec registry is refused), decodes message frames and hands
 * them to the local inbox, and on outgoing connections resumes the {@link Peer}'s drain when the channel turns
 * writable again. A frame that fails to decode is logged and skipped (the length prefix keeps the stream aligned).
 */
final class InboundHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(InboundHandler.class);

    private final NettyTransport transport;
    private final Peer peer;
    private boolean greeted;

    /** @param peer the outgoing link this channel serves, or null for an accepted connection */
    InboundHandler(NettyTransport transport, Peer peer) {
        this.transport = transport;
        this.peer = peer;
        this.greeted = peer != null;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            int kind = frame.readUnsignedByte();
            if (kind == Frames.HELLO) {
                String problem = transport.checkHello(frame);
                if (problem != null) {
                    LOG.error("refusing connection from {}: {}", ctx.channel().remoteAddress(), problem);
                    ctx.close();
                    return;
                }
                greeted = true;
            } else if (kind == Frames.MESSAGE && greeted) {
                transport.receive(frame);
            } else {
                LOG.error("protocol error from {}: frame kind {} {}", ctx.channel().remoteAddress(), kind,
                        greeted ? "unknown" : "before hello");
                ctx.close();
            }
        } catch (CodecException e) {
            LOG.error("undecodable frame from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (peer != null && ctx.channel().isWritable()) {
            peer.kick();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
