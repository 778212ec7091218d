package org.tebaldi.core.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer the storage codecs write into ({@link RowCodec}, {@link VersionCodec}, {@link KeyCodec}):
 * unsigned LEB128 varints, zigzag varints for signed values, raw 8-byte doubles, length-prefixed UTF-8. Reused
 * between records ({@link #reset}); not thread-safe.
 */
public final class ByteSink {
    private byte[] buf;
    private int n;

    /** @param capacity initial capacity, bytes */
    public ByteSink(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /** Forgets what was written (the buffer is kept). */
    public void reset() {
        n = 0;
    }

    /** Bytes written since the last {@link #reset}. */
    public int length() {
        return n;
    }

    /** The buffer; bytes [0, {@link #length}) are the written ones (valid until the next write). */
    public byte[] array() {
        return buf;
    }

    /** A copy of the written bytes. */
    public byte[] toArray() {
        return Arrays.copyOf(buf, n);
    }

    private void room(int k) {
        if (n + k > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, n + k));
        }
    }

    public void putByte(int b) {
        room(1);
        buf[n++] = (byte) b;
    }

    /** Writes bytes [off, off+len) of {@code b}. */
    public void putBytes(byte[] b, int off, int len) {
        room(len);
        System.arraycopy(b, off, buf, n, len);
        n += len;
    }

    /** An unsigned varint (1–10 bytes; a negative value takes 10). */
    public void putVarLong(long v) {
        room(10);
        while ((v & ~0x7FL) != 0) {
            buf[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[n++] = (byte) v;
    }

    /** A signed value as a zigzag varint (small magnitudes take few bytes). */
    public void putZigZag(long v) {
        putVarLong((v << 1) ^ (v >> 63));
    }

    /** A double's IEEE 754 bits, little-endian, 8 bytes. */
    public void putDouble(double d) {
        long bits = Double.doubleToRawLongBits(d);
        room(8);
        for (int i = 0; i < 8; i++) {
            buf[n++] = (byte) (bits >>> (8 * i));
        }
    }

    /** A string as its UTF-8 byte length (varint) and bytes. */
    public void putString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        putVarLong(b.length);
        putBytes(b, 0, b.length);
    }

    /** A byte array as its length (varint) and bytes. */
    public void putLengthPrefixed(byte[] b) {
        putVarLong(b.length);
        putBytes(b, 0, b.length);
    }
}
