package org.tebaldi.core.model;

import java.util.Arrays;

/**
 * Address of a row: (table id, primary key tuple of longs). Immutable; hash precomputed.
 * Workloads encode non-numeric key parts as longs (docs/architecture.md, "Transactions").
 */
public final class Key implements Comparable<Key> {
    private final int table;
    private final long[] parts;
    private final int hash;

    private Key(int table, long[] parts) {
        this.table = table;
        this.parts = parts;
        this.hash = mix(table, parts);
    }

    /**
     * A well-spread hash of (table, parts): key parts are small correlated integers (warehouse, district, order
     * numbers), which a polynomial hash maps onto few buckets; each part is mixed in with 64-bit multiply-xorshift
     * steps (SplitMix64's finalizer).
     */
    private static int mix(int table, long[] parts) {
        long h = 0x9E3779B97F4A7C15L * (table + 1);
        for (long p : parts) {
            h = (h ^ p) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) (h ^ (h >>> 32));
    }

    /** A key of the given table with the given parts (copied). */
    public static Key of(int table, long... parts) {
        return new Key(table, parts.clone());
    }

    /** A key of the given table, checking the arity. @throws IllegalArgumentException on wrong arity */
    public static Key of(TableSchema table, long... parts) {
        if (parts.length != table.keyArity()) {
            throw new IllegalArgumentException("table " + table.name() + " needs " + table.keyArity()
                    + " key parts, got " + parts.length);
        }
        return new Key(table.id(), parts.clone());
    }

    public int table() {
        return table;
    }

    public int arity() {
        return parts.length;
    }

    public long part(int i) {
        return parts[i];
    }

    /** A copy of the key parts. */
    public long[] parts() {
        return parts.clone();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Key k)) {
            return false;
        }
        return hash == k.hash && table == k.table && Arrays.equals(parts, k.parts);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public int compareTo(Key o) {
        if (table != o.table) {
            return Integer.compare(table, o.table);
        }
        return Arrays.compare(parts, o.parts);
    }

    @Override
    public String toString() {
        return "t" + table + Arrays.toString(parts);
    }
}
