package org.tebaldi.core.model;

/**
 * Keys packed into primitives, so that maps and logs over millions of keys keep no {@link Key} object per key: a
 * key's {@code n} parts go into one non-negative {@code long}, part {@code i} in bits {@code [i*b, (i+1)*b)} with
 * {@code b = 63 / n}, when every part is non-negative and below 2<sup>b</sup> (TPC-C's and SEATS's keys all are);
 * {@link #meta} records the table and the arity needed to rebuild the key. Other keys cannot be packed and are kept
 * as objects by the caller.
 */
public final class KeyPacking {
    /** {@link #pack}'s answer for a key whose parts do not fit. */
    public static final long UNPACKED = -1;
    /** Most parts a packed key may have (so the arity fits {@link #meta}'s low 4 bits). */
    public static final int MAX_ARITY = 15;

    private KeyPacking() {
    }

    /** The key's parts packed into a non-negative long, or {@link #UNPACKED}. */
    public static long pack(Key key) {
        int n = key.arity();
        if (n == 0 || n > MAX_ARITY) {
            return UNPACKED;
        }
        int bits = 63 / n;
        long out = 0;
        for (int i = 0; i < n; i++) {
            long p = key.part(i);
            if (p < 0 || (p >>> bits) != 0) {
                return UNPACKED;
            }
            out |= p << (i * bits);
        }
        return out;
    }

    /** Table and arity of a packed key in one int ({@code table << 4 | arity}); decode with {@link #unpack}. */
    public static int meta(Key key) {
        return key.table() << 4 | key.arity();
    }

    /** The key with table and arity {@code meta} ({@link #meta}) whose parts are packed in {@code packed}. */
    public static Key unpack(int meta, long packed) {
        return unpack(meta >>> 4, meta & 15, packed);
    }

    /** The key of {@code table} with {@code arity} parts packed in {@code packed}. */
    public static Key unpack(int table, int arity, long packed) {
        int bits = 63 / arity;
        long mask = (1L << bits) - 1;
        long[] parts = new long[arity];
        for (int i = 0; i < arity; i++) {
            parts[i] = (packed >>> (i * bits)) & mask;
        }
        return Key.of(table, parts);
    }
}
