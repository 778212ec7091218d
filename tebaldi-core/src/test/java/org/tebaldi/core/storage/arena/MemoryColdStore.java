package org.tebaldi.core.storage.arena;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.tebaldi.core.storage.ColdStore;

/** A disk tier in a map, for tests of the spill path in the core module (the server's is RocksDB). */
final class MemoryColdStore implements ColdStore {
    final Map<ByteBuffer, byte[]> map = new HashMap<>();
    int gets;
    boolean closed;

    @Override
    public void putAll(byte[][] keys, byte[][] values, int n) {
        for (int i = 0; i < n; i++) {
            map.put(ByteBuffer.wrap(keys[i].clone()), values[i].clone());
        }
    }

    @Override
    public byte[] get(byte[] key) {
        gets++;
        byte[] v = map.get(ByteBuffer.wrap(key));
        return v == null ? null : v.clone();
    }

    @Override
    public void delete(byte[] key) {
        map.remove(ByteBuffer.wrap(key));
    }

    @Override
    public void forEach(BiConsumer<byte[], byte[]> visitor) {
        map.forEach((k, v) -> visitor.accept(k.array(), v));
    }

    @Override
    public void clear() {
        map.clear();
    }

    @Override
    public long diskBytes() {
        return map.values().stream().mapToLong(v -> v.length).sum();
    }

    @Override
    public void close() {
        closed = true;
    }
}
