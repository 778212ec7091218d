package org.tebaldi.server.net;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.codec.Decoder;

/**
 * A {@link Decoder} over one received frame; reading past its end throws {@link CodecException}. Strings are
 * decoded from the buffer in place (no intermediate {@code byte[]} of the caller's).
 */
final class ByteBufDecoder implements Decoder {
    private final CodecRegistry registry;
    private final CodecContext context;
    private final ByteBuf buf;

    ByteBufDecoder(CodecRegistry registry, CodecContext context, ByteBuf frame) {
        this.registry = registry;
        this.context = context;
        this.buf = frame;
    }

    private void need(int n) {
        if (buf.readableBytes() < n) {
            throw new CodecException("truncated frame: need " + n + " more byte(s), " + buf.readableBytes() + " left");
        }
    }

    @Override
    public int readByte() {
        need(1);
        return buf.readUnsignedByte();
    }

    @Override
    public int readInt() {
        need(4);
        return buf.readInt();
    }

    @Override
    public long readLong() {
        need(8);
        return buf.readLong();
    }

    @Override
    public void readRaw(byte[] b) {
        need(b.length);
        buf.readBytes(b);
    }

    @Override
    public String readString() {
        int n = readLength();
        if (n < 0) {
            return null;
        }
        String s = buf.toString(buf.readerIndex(), n, StandardCharsets.UTF_8);
        buf.skipBytes(n);
        return s;
    }

    @Override
    public int remaining() {
        return buf.readableBytes();
    }

    @Override
    public CodecRegistry registry() {
        return registry;
    }

    @Override
    public CodecContext context() {
        return context;
    }
}
