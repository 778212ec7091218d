package org.tebaldi.core.storage;

import org.tebaldi.core.model.Key;

/**
 * Keys in stored records and on disk: the table id and the arity as varints, then each part as a zigzag varint —
 * one canonical byte string per key, so equal keys have equal bytes (the disk tier's lookups rely on it).
 */
public final class KeyCodec {
    private KeyCodec() {
    }

    /** Appends {@code key} to {@code out}. */
    public static void encode(Key key, ByteSink out) {
        out.putVarLong(key.table());
        int n = key.arity();
        out.putVarLong(n);
        for (int i = 0; i < n; i++) {
            out.putZigZag(key.part(i));
        }
    }

    /** Reads a key written by {@link #encode}. @throws IllegalStateException on malformed bytes */
    public static Key decode(ByteSource in) {
        int table = in.getVarInt();
        int n = in.getVarInt();
        long[] parts = new long[n];
        for (int i = 0; i < n; i++) {
            parts[i] = in.getZigZag();
        }
        return Key.of(table, parts);
    }

    /** Whether the key {@code in} holds at its position is {@code key}; the position moves past it either way. */
    public static boolean matches(Key key, ByteSource in) {
        boolean same = in.getVarInt() == key.table();
        int n = in.getVarInt();
        same &= n == key.arity();
        for (int i = 0; i < n; i++) {
            long p = in.getZigZag();
            same &= i < key.arity() && p == key.part(i);
        }
        return same;
    }

    /**
     * A well-spread 64-bit hash of {@code key} (SplitMix64's finalizer over table and parts), for indexes of keys
     * that cannot be packed into one long ({@link org.tebaldi.core.model.KeyPacking}).
     */
    public static long hash64(Key key) {
        long h = 0x9E3779B97F4A7C15L * (key.table() + 1);
        for (int i = 0; i < key.arity(); i++) {
            h = (h ^ key.part(i)) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return h;
    }
}
