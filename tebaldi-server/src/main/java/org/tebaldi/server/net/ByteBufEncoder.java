package org.tebaldi.server.net;

import io.netty.buffer.ByteBuf;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.codec.Encoder;

/**
 * An {@link Encoder} appending to a Netty buffer (which grows as needed): every field is written straight into the
 * buffer. Strings keep {@link Encoder#writeString} ({@code String.getBytes(UTF_8)}, then one bulk copy): encoding
 * them char by char into the buffer ({@code ByteBufUtil.reserveAndWriteUtf8}) was the hottest frame of a data
 * server in process mode (TPC-C rows hold long strings; {@code String.charAt} per character under C1).
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
    public CodecRegistry registry() {
        return registry;
    }
}
