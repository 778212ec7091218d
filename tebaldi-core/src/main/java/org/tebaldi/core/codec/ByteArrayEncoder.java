package org.tebaldi.core.codec;

import java.util.Arrays;

/** An {@link Encoder} into a growable byte array (tests, and payloads built before they reach a transport). */
public final class ByteArrayEncoder implements Encoder {
    private final CodecRegistry registry;
    private byte[] buf;
    private int size;

    /** @param registry encodes tagged values */
    public ByteArrayEncoder(CodecRegistry registry) {
        this(registry, 64);
    }

    /**
     * @param registry encodes tagged values
     * @param capacity the bytes it holds before it first grows (e.g. a durable log's record of a whole transaction)
     */
    public ByteArrayEncoder(CodecRegistry registry, int capacity) {
        this.registry = registry;
        this.buf = new byte[Math.max(16, capacity)];
    }

    private void ensure(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }
    }

    @Override
    public void writeByte(int b) {
        ensure(1);
        buf[size++] = (byte) b;
    }

    /** As {@link Encoder#writeVarInt}, with one capacity check instead of one per byte. */
    @Override
    public void writeVarInt(int v) {
        writeUnsigned(v & 0xFFFFFFFFL);
    }

    /** As {@link Encoder#writeVarLong}, with one capacity check instead of one per byte. */
    @Override
    public void writeVarLong(long v) {
        writeUnsigned((v << 1) ^ (v >> 63));
    }

    /** {@code z} as unsigned LEB128 (1–10 bytes). */
    private void writeUnsigned(long z) {
        ensure(10);
        byte[] b = buf;
        int n = size;
        while ((z & ~0x7FL) != 0) {
            b[n++] = (byte) ((z & 0x7F) | 0x80);
            z >>>= 7;
        }
        b[n++] = (byte) z;
        size = n;
    }

    @Override
    public void writeInt(int v) {
        ensure(4);
        for (int s = 24; s >= 0; s -= 8) {
            buf[size++] = (byte) (v >>> s);
        }
    }

    @Override
    public void writeLong(long v) {
        ensure(8);
        for (int s = 56; s >= 0; s -= 8) {
            buf[size++] = (byte) (v >>> s);
        }
    }

    @Override
    public void writeRaw(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
    }

    @Override
    public CodecRegistry registry() {
        return registry;
    }

    /** Bytes written so far. */
    public int size() {
        return size;
    }

    /** A copy of the bytes written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }
}
