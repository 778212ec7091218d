package org.tebaldi.core.codec;

import java.nio.charset.StandardCharsets;

/**
 * Writes primitive fields and tagged values into a byte sink (a growable array here, a Netty buffer in
 * tebaldi-server). Implementations provide the four raw primitives and the registry; the rest is built on them.
 * Layouts: var-ints are LEB128 (zig-zag for signed longs), strings are a var-int length + 1 (0 = null) then UTF-8,
 * arrays a var-int length + 1 (0 = null) then elements. Not thread-safe.
 */
public interface Encoder {
    /** Writes one byte (the low 8 bits). */
    void writeByte(int b);

    /** Writes 4 bytes, big-endian. */
    void writeInt(int v);

    /** Writes 8 bytes, big-endian. */
    void writeLong(long v);

    /** Writes {@code len} bytes of {@code b} from {@code off}. */
    void writeRaw(byte[] b, int off, int len);

    /** The registry that encodes tagged values ({@link #writeValue}). */
    CodecRegistry registry();

    /** Writes a boolean as one byte. */
    default void writeBoolean(boolean v) {
        writeByte(v ? 1 : 0);
    }

    /** Writes a non-negative int as LEB128 (1–5 bytes); negative values take 5 bytes. */
    default void writeVarInt(int v) {
        while ((v & ~0x7F) != 0) {
            writeByte((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        writeByte(v);
    }

    /** Writes a long zig-zag encoded as LEB128 (small magnitudes of either sign are short). */
    default void writeVarLong(long v) {
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            writeByte((int) ((z & 0x7F) | 0x80));
            z >>>= 7;
        }
        writeByte((int) z);
    }

    /** Writes a double as its 8 IEEE bytes. */
    default void writeDouble(double v) {
        writeLong(Double.doubleToRawLongBits(v));
    }

    /** Writes a string, or null. */
    default void writeString(String s) {
        if (s == null) {
            writeVarInt(0);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        writeVarInt(b.length + 1);
        writeRaw(b, 0, b.length);
    }

    /** Writes a byte array, or null. */
    default void writeBytes(byte[] b) {
        if (b == null) {
            writeVarInt(0);
            return;
        }
        writeVarInt(b.length + 1);
        writeRaw(b, 0, b.length);
    }

    /** Writes a long array, or null (elements zig-zag var-longs). */
    default void writeLongs(long[] a) {
        if (a == null) {
            writeVarInt(0);
            return;
        }
        writeVarInt(a.length + 1);
        for (long x : a) {
            writeVarLong(x);
        }
    }

    /**
     * Writes any supported value with a type tag: null, Long, Integer, Double, String, byte[], Boolean, long[],
     * Object[], List, Map, or an instance of a class some {@link CodecProvider} registered.
     *
     * @throws CodecException for a value of another class
     */
    default void writeValue(Object v) {
        registry().writeValue(this, v);
    }
}
