package org.tebaldi.core.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.util.Map;
import java.util.Objects;
import org.tebaldi.core.codec.ByteArrayDecoder;
import org.tebaldi.core.codec.ByteArrayEncoder;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.model.Catalog;

/**
 * Codec round trips for tests of every module: encodes a value with the class-path registry, decodes it, checks that
 * every byte was read, that re-encoding gives the same bytes, and that the copy equals the original field by field
 * ({@link #equal}: records by component, arrays and maps by content).
 */
public final class RoundTrip {
    private static final CodecRegistry REG = CodecRegistry.classPath();

    private RoundTrip() {
    }

    /** Asserts {@code v} survives encode/decode without a catalog; returns the decoded copy. */
    public static Object check(Object v) {
        return check(v, null);
    }

    /** As {@link #check(Object)}, decoding rows and keys against {@code catalog} (null: none). */
    public static Object check(Object v, Catalog catalog) {
        Object back = bytesOnly(v, catalog);
        assertTrue(equal(v, back), () -> "round trip changed " + v + " into " + back);
        return back;
    }

    /** Encodes and decodes {@code v}, asserting every byte was read and re-encoding is identical; the copy. */
    public static Object bytesOnly(Object v, Catalog catalog) {
        ByteArrayEncoder e = new ByteArrayEncoder(REG);
        e.writeValue(v);
        byte[] bytes = e.toByteArray();
        ByteArrayDecoder d = new ByteArrayDecoder(REG, catalog == null ? CodecContext.NONE : new CodecContext(catalog),
                bytes);
        Object back = d.readValue();
        assertEquals(0, d.remaining(), () -> "the decoder left bytes of " + v);
        ByteArrayEncoder again = new ByteArrayEncoder(REG);
        again.writeValue(back);
        assertArrayEquals(bytes, again.toByteArray(), () -> "re-encoding " + v);
        return back;
    }

    /** Deep equality of decoded values: records component by component, arrays and maps by content. */
    public static boolean equal(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.getClass().isRecord() && a.getClass() == b.getClass()) {
            for (RecordComponent c : a.getClass().getRecordComponents()) {
                try {
                    c.getAccessor().setAccessible(true);
                    if (!equal(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
                        return false;
                    }
                } catch (ReflectiveOperationException x) {
                    throw new AssertionError(x);
                }
            }
            return true;
        }
        if (a instanceof Object[] x && b instanceof Object[] y) {
            if (x.length != y.length) {
                return false;
            }
            for (int i = 0; i < x.length; i++) {
                if (!equal(x[i], y[i])) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) {
                return false;
            }
            for (Object k : x.keySet()) {
                if (!equal(x.get(k), y.get(k))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof org.tebaldi.core.profile.BlockingBatch x && b instanceof org.tebaldi.core.profile.BlockingBatch y) {
            return java.util.Arrays.equals(x.events(), y.events());
        }
        if (a instanceof org.tebaldi.core.txn.Inputs x && b instanceof org.tebaldi.core.txn.Inputs y) {
            return equal(x.values(), y.values());
        }
        return Objects.deepEquals(a, b);
    }
}
