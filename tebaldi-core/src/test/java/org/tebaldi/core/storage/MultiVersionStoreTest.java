package org.tebaldi.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;

class MultiVersionStoreTest {
    @Test
    void packedAndUnpackedKeysLiveSideBySide() {
        MultiVersionStore s = new MultiVersionStore(16);
        Key[] keys = {Key.of(0, 7), Key.of(0, Long.MAX_VALUE), Key.of(1, 2, 3), Key.of(1, -5, 3),
            Key.of(2, 1, 1, 1, 9L << 32), Key.of(2, 1, 1, 1, 9), Key.of(1, 2), Key.of(7)};
        Map<Key, VersionChain> chains = new HashMap<>();
        for (Key k : keys) {
            assertNull(s.find(k), k + " absent before");
            VersionChain c = s.chain(k);
            assertSame(c, s.chain(k), "the same chain again for " + k);
            assertSame(c, s.find(k));
            chains.put(k, c);
        }
        assertEquals(keys.length, s.keyCount());
        Map<Key, VersionChain> visited = new HashMap<>();
        s.forEach(visited::put);
        assertEquals(chains, visited, "forEach rebuilds every key, packed or not");
        assertNull(s.find(Key.of(0, 8)));
        assertNull(s.find(Key.of(9, 1)));
    }

    @Test
    void manyKeysOfOnePartAreFoundAgain() {
        MultiVersionStore s = new MultiVersionStore(1024);
        for (long i = 0; i < 50_000; i++) {
            s.chain(Key.of(3, i));
        }
        for (long i = 0; i < 50_000; i += 997) {
            assertSame(s.chain(Key.of(3, i)), s.find(Key.of(3, i)));
        }
        assertEquals(50_000, s.keyCount());
    }
}
