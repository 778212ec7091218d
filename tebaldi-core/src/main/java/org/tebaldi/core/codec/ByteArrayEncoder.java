package org.tebaldi.core.codec;

import java.util.Arrays;

/** An {@link Encoder} into a growable byte array (tests, and payloads built before they reach a transport). */
public final class ByteArrayEncoder implements Encoder {
    private final CodecRegistry registry;
    private byte[] buf = new byte[64];
    private int size;

    /** @param registry encodes tagged values */
    public ByteArrayEncoder(CodecRegistry registry) {
        this.registry = registry;
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
