package org.tebaldi.core.codec;

import java.nio.charset.StandardCharsets;

/**
 * Reads what an {@link Encoder} wrote (same layouts). Implementations provide the raw primitives, the registry and
 * the {@link CodecContext}; reading past the end throws {@link CodecException}. Not thread-safe.
 */
public interface Decoder {
    /** Reads one byte, 0..255. */
    int readByte();

    /** Reads 4 bytes, big-endian. */
    int readInt();

    /** Reads 8 bytes, big-endian. */
    long readLong();

    /** Fills {@code b} entirely. */
    void readRaw(byte[] b);

    /** Bytes left to read. */
    int remaining();

    /** The registry that decodes tagged values. */
    CodecRegistry registry();

    /** The catalog and other context decoding needs. */
    CodecContext context();

    /** Reads a boolean. */
    default boolean readBoolean() {
        return readByte() != 0;
    }

    /** Reads a LEB128 int. @throws CodecException if longer than 5 bytes */
    default int readVarInt() {
        int v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = readByte();
            v |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new CodecException("malformed var-int (more than 5 bytes)");
    }

    /** Reads a zig-zag LEB128 long. @throws CodecException if longer than 10 bytes */
    default long readVarLong() {
        long z = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = readByte();
            z |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (z >>> 1) ^ -(z & 1);
            }
        }
        throw new CodecException("malformed var-long (more than 10 bytes)");
    }

    /** Reads a double. */
    default double readDouble() {
        return Double.longBitsToDouble(readLong());
    }

    /**
     * Reads a length written as length + 1 (0 = null): -1 for null.
     *
     * @throws CodecException if negative or larger than the bytes left (every element takes at least one byte)
     */
    default int readLength() {
        int n = readVarInt() - 1;
        if (n < -1 || n > remaining()) {
            throw new CodecException("length " + n + " out of range (" + remaining() + " bytes left)");
        }
        return n;
    }

    /** Reads a string or null. */
    default String readString() {
        int n = readLength();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        readRaw(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Reads a byte array or null. */
    default byte[] readBytes() {
        int n = readLength();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        readRaw(b);
        return b;
    }

    /** Reads a long array or null. */
    default long[] readLongs() {
        int n = readLength();
        if (n < 0) {
            return null;
        }
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = readVarLong();
        }
        return a;
    }

    /** Reads a tagged value ({@link Encoder#writeValue}). */
    default Object readValue() {
        return registry().readValue(this);
    }
}
