package org.tebaldi.core.codec;

/** A {@link Decoder} over a byte array range. */
public final class ByteArrayDecoder implements Decoder {
    private final CodecRegistry registry;
    private final CodecContext context;
    private final byte[] buf;
    private int pos;
    private final int end;

    /** Reads all of {@code buf}. */
    public ByteArrayDecoder(CodecRegistry registry, CodecContext context, byte[] buf) {
        this(registry, context, buf, 0, buf.length);
    }

    /** Reads {@code buf[off .. off+len)}. */
    public ByteArrayDecoder(CodecRegistry registry, CodecContext context, byte[] buf, int off, int len) {
        this.registry = registry;
        this.context = context;
        this.buf = buf;
        this.pos = off;
        this.end = off + len;
    }

    private void need(int n) {
        if (end - pos < n) {
            throw new CodecException("truncated: need " + n + " more byte(s), " + (end - pos) + " left");
        }
    }

    @Override
    public int readByte() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    @Override
    public int readInt() {
        need(4);
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    @Override
    public long readLong() {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    @Override
    public void readRaw(byte[] b) {
        need(b.length);
        System.arraycopy(buf, pos, b, 0, b.length);
        pos += b.length;
    }

    @Override
    public int remaining() {
        return end - pos;
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
