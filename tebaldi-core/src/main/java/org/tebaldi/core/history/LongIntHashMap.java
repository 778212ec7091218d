package org.tebaldi.core.history;

import java.util.Arrays;

/**
 * Open-addressing hash map from {@code long} to {@code int} (linear probing, load factor at most 1/2), used to
 * give transaction ids dense indices and to index (writer, key) pairs without boxing: about 24 bytes per entry.
 * Every {@code long} is a valid key. No removal. Not thread-safe.
 */
final class LongIntHashMap {
    private static final long EMPTY = Long.MIN_VALUE;

    private long[] keys;
    private int[] values;
    private int size;
    private boolean hasEmptyKey;
    private int emptyKeyValue;

    /** A map sized for about {@code expected} entries without resizing. */
    LongIntHashMap(int expected) {
        int n = Math.min(Math.max(4, expected), 1 << 28);
        int cap = Integer.highestOneBit(n * 2 - 1) << 1;
        keys = new long[cap];
        Arrays.fill(keys, EMPTY);
        values = new int[cap];
    }

    /** Number of entries. */
    int size() {
        return size;
    }

    /** The value for {@code key}, or {@code absent} if none. */
    int get(long key, int absent) {
        if (key == EMPTY) {
            return hasEmptyKey ? emptyKeyValue : absent;
        }
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == EMPTY) {
                return absent;
            }
        }
    }

    /** Sets the value for {@code key}, replacing any earlier one. */
    void put(long key, int value) {
        if (key == EMPTY) {
            if (!hasEmptyKey) {
                hasEmptyKey = true;
                size++;
            }
            emptyKeyValue = value;
            return;
        }
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (keys[i] != EMPTY) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
        if (size * 2 > keys.length) {
            grow();
        }
    }

    /** Calls {@code action} for every entry, in no particular order. */
    void forEach(Entry action) {
        if (hasEmptyKey) {
            action.accept(EMPTY, emptyKeyValue);
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY) {
                action.accept(keys[i], values[i]);
            }
        }
    }

    /** Receives one entry of {@link #forEach}. */
    @FunctionalInterface
    interface Entry {
        void accept(long key, int value);
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        if (oldKeys.length >= 1 << 30) {
            throw new IllegalStateException("LongIntHashMap too large: " + size + " entries");
        }
        keys = new long[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        values = new int[keys.length];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            long k = oldKeys[j];
            if (k != EMPTY) {
                int i = slot(k, mask);
                while (keys[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                values[i] = oldValues[j];
            }
        }
    }

    private static int slot(long key, int mask) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h & mask;
    }
}
