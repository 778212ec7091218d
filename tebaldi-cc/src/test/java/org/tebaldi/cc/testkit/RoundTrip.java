package org.tebaldi.cc.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.util.Objects;
import org.tebaldi.core.codec.ByteArrayDecoder;
import org.tebaldi.core.codec.ByteArrayEncoder;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.codec.CodecRegistry;

/** Encodes a value with the class-path registry, decodes it, and checks it came back field by field. */
public final class RoundTrip {
    private RoundTrip() {
    }

    /** Asserts {@code v} survives encode/decode, and returns the decoded copy. */
    public static Object check(Object v) {
        CodecRegistry reg = CodecRegistry.classPath();
        ByteArrayEncoder e = new ByteArrayEncoder(reg);
        e.writeValue(v);
        ByteArrayDecoder d = new ByteArrayDecoder(reg, CodecContext.NONE, e.toByteArray());
        Object back = d.readValue();
        assertEquals(0, d.remaining());
        ByteArrayEncoder again = new ByteArrayEncoder(reg);
        again.writeValue(back);
        assertArrayEquals(e.toByteArray(), again.toByteArray());
        assertTrue(equal(v, back), () -> "round trip changed " + v + " into " + back);
        return back;
    }

    private static boolean equal(Object a, Object b) {
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
        return Objects.deepEquals(a, b);
    }
}
