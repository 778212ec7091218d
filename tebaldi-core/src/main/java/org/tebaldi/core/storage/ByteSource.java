package org.tebaldi.core.storage;

import java.nio.charset.StandardCharsets;

/**
 * Reads what a {@link ByteSink} wrote, from a byte array and a position (reset for every record, so one reader
 * serves a whole store). Not thread-safe.
 *
 * @see ByteSink
 */
public final class ByteSource {
    private byte[] buf;
    private int pos;
    private int end;

    /** Reads bytes [off, off+len) of {@code b} from now on. */
    public ByteSource reset(byte[] b, int off, int len) {
        buf = b;
        pos = off;
        end = off + len;
        return this;
    }

    /** The position of the next byte to read. */
    public int position() {
        return pos;
    }

    /** Bytes left to read. */
    public int remaining() {
        return end - pos;
    }

    /** The underlying array. */
    public byte[] array() {
        return buf;
    }

    private void need(int k) {
        if (pos + k > end) {
            throw new IllegalStateException("corrupt stored record: needs " + k + " more byte(s) at " + pos
                    + ", has " + (end - pos));
        }
    }

    public int getByte() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    /** Skips {@code k} bytes. @throws IllegalStateException past the end */
    public void skip(int k) {
        need(k);
        pos += k;
    }

    /** @throws IllegalStateException on a varint longer than 10 bytes or past the end */
    public long getVarLong() {
        long v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            need(1);
            byte b = buf[pos++];
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new IllegalStateException("corrupt stored record: varint longer than 10 bytes at " + pos);
    }

    /** A varint that must fit an int (a length or a count). */
    public int getVarInt() {
        long v = getVarLong();
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new IllegalStateException("corrupt stored record: length " + v + " at " + pos);
        }
        return (int) v;
    }

    public long getZigZag() {
        long v = getVarLong();
        return (v >>> 1) ^ -(v & 1);
    }

    public double getDouble() {
        need(8);
        long bits = 0;
        for (int i = 0; i < 8; i++) {
            bits |= (buf[pos++] & 0xFFL) << (8 * i);
        }
        return Double.longBitsToDouble(bits);
    }

    public String getString() {
        int len = getVarInt();
        need(len);
        String s = new String(buf, pos, len, StandardCharsets.UTF_8);
        pos += len;
        return s;
    }

    public byte[] getLengthPrefixed() {
        int len = getVarInt();
        need(len);
        byte[] b = java.util.Arrays.copyOfRange(buf, pos, pos + len);
        pos += len;
        return b;
    }
}
