package org.tebaldi.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Objects;

/** Field-by-field equality of decoded records (arrays compared by content), for round-trip tests. */
final class Deep {
    private Deep() {
    }

    static void assertSame(Object expected, Object actual) {
        assertTrue(equal(expected, actual), () -> "round trip changed " + expected + " into " + actual);
    }

    static boolean equal(Object a, Object b) {
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
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
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
        if (a.getClass().isArray()) {
            return Objects.deepEquals(a, b);
        }
        if (a instanceof org.tebaldi.core.txn.Inputs x && b instanceof org.tebaldi.core.txn.Inputs y) {
            return equal(x.values(), y.values());
        }
        return a.equals(b);
    }

    static void assertBytes(byte[] a, byte[] b) {
        assertEquals(Arrays.toString(a), Arrays.toString(b));
    }
}
