package org.tebaldi.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteArrayEncoder}'s own variable-length writers (one capacity check per value) write the bytes of
 * {@link Encoder}'s per-byte defaults, across every length and the array's growth, and read back.
 */
class ByteArrayEncoderTest {
    static final CodecRegistry REG = CodecRegistry.classPath();

    /** The interface's default writers, one byte at a time. */
    private static final class PerByte implements Encoder {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        @Override
        public void writeByte(int b) {
            out.write(b);
        }

        @Override
        public void writeInt(int v) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void writeLong(long v) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void writeRaw(byte[] b, int off, int len) {
            out.write(b, off, len);
        }

        @Override
        public CodecRegistry registry() {
            return REG;
        }
    }

    static final long[] LONGS = {0, 1, -1, 63, -64, 64, 127, 128, 8191, 8192, -8193, 1L << 35, -(1L << 35),
        Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1};
    static final int[] INTS = {0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, Integer.MAX_VALUE, -1,
        Integer.MIN_VALUE};

    @Test
    void variableLengthValuesMatchTheDefaultsAndReadBack() {
        ByteArrayEncoder fast = new ByteArrayEncoder(REG, 16); // grows several times below
        PerByte slow = new PerByte();
        for (int round = 0; round < 20; round++) {
            for (long v : LONGS) {
                fast.writeVarLong(v);
                slow.writeVarLong(v);
            }
            for (int v : INTS) {
                fast.writeVarInt(v);
                slow.writeVarInt(v);
            }
        }
        byte[] bytes = fast.toByteArray();
        assertArrayEquals(slow.out.toByteArray(), bytes);
        ByteArrayDecoder in = new ByteArrayDecoder(REG, null, bytes);
        for (int round = 0; round < 20; round++) {
            for (long v : LONGS) {
                assertEquals(v, in.readVarLong());
            }
            for (int v : INTS) {
                assertEquals(v, in.readVarInt());
            }
        }
        assertEquals(0, in.remaining());
    }
}
