package org.tebaldi.server.net;

import io.netty.buffer.ByteBuf;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.Decoder;
import org.tebaldi.core.codec.Encoder;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/**
 * The wire format of the Netty transport (docs/architecture.md, "Runtime"): length-prefixed binary frames, {@code [int32 length]
 * [byte kind][body]}. A connection starts with a handshake: the accepting side sends one {@link #CHALLENGE} (a
 * random nonce of {@link ClusterSecret#NONCE_BYTES} bytes), the connecting side answers with one {@link #HELLO}
 * ({@code int64} codec-registry fingerprint, the sender's process name, then the {@link ClusterSecret#MAC_BYTES}-byte
 * HMAC of the nonce under the cluster secret). Until the hello is accepted, frames above {@link #HANDSHAKE_MAX_FRAME}
 * bytes are refused before anything is buffered. Every later frame, from the connecting side only, is a
 * {@link #MESSAGE}: sender node id, receiver node id (each a role byte and a var-int index), then the message as a
 * tagged value.
 */
final class Frames {
    static final int HELLO = 1;
    static final int MESSAGE = 2;
    static final int CHALLENGE = 3;
    /** Largest frame accepted before the handshake is done, bytes (a hello with a 500-character name fits). */
    static final int HANDSHAKE_MAX_FRAME = 1024;
    /** How long a connection may take to complete its handshake before it is closed, ms. */
    static final long HANDSHAKE_MILLIS = 10_000;
    /** Largest frame accepted, bytes (history and snapshot transfers are chunked well below it). */
    static final int MAX_FRAME = 64 << 20;
    private static final Role[] ROLES = Role.values();

    private Frames() {
    }

    /** The length-prefix splitter for frames of at most {@code max} bytes (the prefix is stripped). */
    static io.netty.handler.codec.LengthFieldBasedFrameDecoder splitter(int max) {
        return new io.netty.handler.codec.LengthFieldBasedFrameDecoder(max, 0, 4, 0, 4);
    }

    /** Starts a frame: reserves the length field; returns its position for {@link #end}. */
    static int begin(ByteBuf b, int kind) {
        int at = b.writerIndex();
        b.writeInt(0);
        b.writeByte(kind);
        return at;
    }

    /** Fills in the length of the frame begun at {@code at}. */
    static void end(ByteBuf b, int at) {
        b.setInt(at, b.writerIndex() - at - 4);
    }

    static void writeNode(Encoder e, NodeId n) {
        e.writeByte(n.role().ordinal());
        e.writeVarInt(n.index());
    }

    static NodeId readNode(Decoder d) {
        int r = d.readByte();
        if (r >= ROLES.length) {
            throw new CodecException("unknown role " + r);
        }
        return new NodeId(ROLES[r], d.readVarInt());
    }
}
