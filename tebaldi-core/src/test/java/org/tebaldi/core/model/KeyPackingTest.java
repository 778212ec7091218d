package org.tebaldi.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyPackingTest {
    private static void roundTrip(Key k) {
        long p = KeyPacking.pack(k);
        assertNotEquals(KeyPacking.UNPACKED, p, k + " should pack");
        assertTrue(p >= 0, "packed keys are non-negative");
        assertEquals(k, KeyPacking.unpack(KeyPacking.meta(k), p));
        assertEquals(k, KeyPacking.unpack(k.table(), k.arity(), p));
    }

    @Test
    void everyArityPacksItsFullRange() {
        roundTrip(Key.of(8, 0));
        roundTrip(Key.of(8, 100_000));
        roundTrip(Key.of(8, Long.MAX_VALUE)); // one part: all 63 bits
        roundTrip(Key.of(1, 10, (1L << 31) - 1));
        roundTrip(Key.of(3, 1, 10, 3_000));
        roundTrip(Key.of(5, 10, 10, 32_767, 15));
        for (int n = 1; n <= KeyPacking.MAX_ARITY; n++) {
            long[] parts = new long[n];
            java.util.Arrays.fill(parts, (1L << (63 / n)) - 1);
            roundTrip(Key.of(2, parts));
        }
    }

    @Test
    void partsThatDoNotFitAreNotPacked() {
        assertEquals(KeyPacking.UNPACKED, KeyPacking.pack(Key.of(8, -1)));
        assertEquals(KeyPacking.UNPACKED, KeyPacking.pack(Key.of(1, 10, 1L << 31)));
        assertEquals(KeyPacking.UNPACKED, KeyPacking.pack(Key.of(4, 1, 1, 1, 7L << 32)));
        assertEquals(KeyPacking.UNPACKED, KeyPacking.pack(Key.of(4)));
        assertEquals(KeyPacking.UNPACKED, KeyPacking.pack(Key.of(4, new long[KeyPacking.MAX_ARITY + 1])));
    }

    @Test
    void distinctKeysOfOneTableAndArityPackDistinctly() {
        Set<Long> seen = new HashSet<>();
        for (long w = 1; w <= 4; w++) {
            for (long d = 1; d <= 10; d++) {
                for (long o = 1; o <= 50; o++) {
                    assertTrue(seen.add(KeyPacking.pack(Key.of(6, w, d, o))));
                }
            }
        }
    }
}
