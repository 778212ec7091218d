package org.tebaldi.bench.tpcc;

import java.util.SplittableRandom;

/**
 * The random functions of TPC-C §2.1.5–§2.1.6 and §4.3.2 over a seeded {@link SplittableRandom} (deterministic per
 * seed; not thread-safe: one instance per thread or client).
 */
public final class TpccRandom {
    private static final char[] ALNUM =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
    private static final String[] SYLLABLES =
            {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};

    private final SplittableRandom r;

    /** A generator seeded with {@code seed}. */
    public TpccRandom(long seed) {
        this.r = new SplittableRandom(seed);
    }

    /** A uniform long in [lo, hi] (both inclusive; TPC-C §2.1.5 "random(x..y)"). */
    public long uniform(long lo, long hi) {
        if (hi < lo) {
            throw new IllegalArgumentException("empty range " + lo + ".." + hi);
        }
        return lo + r.nextLong(hi - lo + 1);
    }

    /** A uniform int in [lo, hi] (both inclusive). */
    public int uniformInt(int lo, int hi) {
        return (int) uniform(lo, hi);
    }

    /** True with probability {@code percent}/100. */
    public boolean percent(int percent) {
        return r.nextInt(100) < percent;
    }

    /**
     * NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x (TPC-C §2.1.6); y - x may be smaller
     * than A (scaled-down databases): the result stays in [x, y].
     */
    public long nuRand(int a, long x, long y, int c) {
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /**
     * A money or rate amount with {@code decimals} decimal places, uniform over [min, max] (TPC-C §4.3.2.1), e.g.
     * {@code fixed(4, 0.0, 0.2)} for a tax rate.
     */
    public double fixed(int decimals, double min, double max) {
        double scale = Math.pow(10, decimals);
        long lo = Math.round(min * scale);
        long hi = Math.round(max * scale);
        return uniform(lo, hi) / scale;
    }

    /** A random a-string of uniform length in [min, max] (TPC-C §4.3.2.2: letters and digits). */
    public String aString(int min, int max) {
        int n = uniformInt(min, max);
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = ALNUM[r.nextInt(ALNUM.length)];
        }
        return new String(c);
    }

    /** A random n-string (digits) of uniform length in [min, max] (TPC-C §4.3.2.2). */
    public String nString(int min, int max) {
        int n = uniformInt(min, max);
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = (char) ('0' + r.nextInt(10));
        }
        return new String(c);
    }

    /** A zip code: a 4-digit n-string followed by "11111" (TPC-C §4.3.2.7). */
    public String zip() {
        return nString(4, 4) + "11111";
    }

    /**
     * An a-string of length in [min, max] that, with probability 10%, holds "ORIGINAL" at a random position
     * (i_data and s_data, TPC-C §4.3.3.1).
     */
    public String data(int min, int max) {
        String s = aString(min, max);
        if (r.nextInt(10) != 0) {
            return s;
        }
        int at = r.nextInt(s.length() - 8 + 1);
        return s.substring(0, at) + "ORIGINAL" + s.substring(at + 8);
    }

    /**
     * The customer last name of a number in [0, 999]: its three decimal digits mapped to the syllables BAR OUGHT
     * ABLE PRI PRES ESE ANTI CALLY ATION EING (TPC-C §4.3.2.3), e.g. 371 → PRICALLYOUGHT.
     *
     * @throws IllegalArgumentException outside [0, 999]
     */
    public static String lastName(int num) {
        if (num < 0 || num > 999) {
            throw new IllegalArgumentException("last name number must be in [0, 999], got " + num);
        }
        return SYLLABLES[num / 100] + SYLLABLES[(num / 10) % 10] + SYLLABLES[num % 10];
    }

    /** A new independent generator (for a sub-stream, e.g. one warehouse of the loader). */
    public TpccRandom split() {
        return new TpccRandom(r.nextLong());
    }

    /** A uniform long over all longs (for seeding). */
    public long nextLong() {
        return r.nextLong();
    }
}
