package org.tebaldi.bench.tpcc;

import java.util.function.Supplier;

/**
 * A fixed set of pre-generated random strings that rows draw from, so that millions of rows share a few thousand
 * {@link String} objects (the loader's memory bound: 10 warehouses hold about 15 million string fields, which as
 * fresh strings would cost gigabytes). Every string still has the spec's length and character distribution (TPC-C
 * §4.3.2); only the number of distinct values is bounded. No transaction depends on the values of these fields.
 */
final class StringPool {
    /** Strings per pool. */
    static final int SIZE = 4096;

    private final String[] strings;

    /** A pool of {@code size} strings from {@code gen}. */
    StringPool(int size, Supplier<String> gen) {
        strings = new String[size];
        for (int i = 0; i < size; i++) {
            strings[i] = gen.get();
        }
    }

    /** A string drawn uniformly from the pool. */
    String pick(TpccRandom r) {
        return strings[r.uniformInt(0, strings.length - 1)];
    }
}
