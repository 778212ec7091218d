package org.tebaldi.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.codec.Encoder;

/**
 * An {@link Encoder} appending to a Netty buffer (which grows as needed). Strings are encoded as UTF-8 straight
 * into the buffer (no intermediate {@code byte[]}), byte for byte what {@link Encoder#writeString} writes.
 */
final class ByteBufEncoder implements Encoder {
    private final CodecRegistry registry;
    private ByteBuf buf;

    ByteBufEncoder(CodecRegistry registry) {
        this.registry = registry;
    }

    /** Targets {@code b} for the following writes. */
    ByteBufEncoder into(ByteBuf b) {
        this.buf = b;
        return this;
    }

    @Override
    public void writeByte(int b) {
        buf.writeByte(b);
    }

    @Override
    public void writeInt(int v) {
        buf.writeInt(v);
    }

    @Override
    public void writeLong(long v) {
        buf.writeLong(v);
    }

    @Override
    public void writeRaw(byte[] b, int off, int len) {
        buf.writeBytes(b, off, len);
    }

    @Override
    public void writeString(String s) {
        if (s == null) {
            writeVarInt(0);
            return;
        }
        int n = ByteBufUtil.utf8Bytes(s);
        writeVarInt(n + 1);
        ByteBufUtil.reserveAndWriteUtf8(buf, s, n);
    }

    @Override
    public CodecRegistry registry() {
        return registry;
    }
}
