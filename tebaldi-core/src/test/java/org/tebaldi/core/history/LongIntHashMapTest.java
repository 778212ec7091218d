package org.tebaldi.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link LongIntHashMap} agrees with {@link HashMap}, including the sentinel-valued key and growth. */
class LongIntHashMapTest {
    @Test
    void agreesWithHashMap() {
        LongIntHashMap m = new LongIntHashMap(2);
        Map<Long, Integer> ref = new HashMap<>();
        Random rnd = new Random(42);
        long[] special = {Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L};
        for (int i = 0; i < 200_000; i++) {
            long key = i < special.length ? special[i] : rnd.nextInt(50_000) * 0x10000000001L;
            int value = rnd.nextInt();
            m.put(key, value);
            ref.put(key, value);
        }
        assertEquals(ref.size(), m.size());
        for (Map.Entry<Long, Integer> e : ref.entrySet()) {
            assertEquals(e.getValue(), m.get(e.getKey(), -7));
        }
        assertEquals(-7, m.get(12345L, -7));
        Map<Long, Integer> back = new HashMap<>();
        m.forEach(back::put);
        assertEquals(ref, back);
    }
}
