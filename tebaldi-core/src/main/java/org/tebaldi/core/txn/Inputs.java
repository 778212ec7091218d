package org.tebaldi.core.txn;

import java.util.Arrays;

/**
 * Input parameters of a transaction, positionally aligned with its type's parameter list. Values are
 * {@link Long}, {@link Double}, {@link String} or {@code long[]} arrays. Immutable by convention.
 */
public final class Inputs {
    public static final Inputs NONE = new Inputs(new Object[0]);
    private final Object[] values;

    private Inputs(Object[] values) {
        this.values = values;
    }

    /** Inputs from values in parameter order (not copied: callers must not mutate the array afterwards). */
    public static Inputs of(Object... values) {
        return new Inputs(values);
    }

    public int size() {
        return values.length;
    }

    public Object get(int i) {
        return values[i];
    }

    public long getLong(int i) {
        return ((Number) values[i]).longValue();
    }

    /** The raw values (shared, do not mutate). */
    public Object[] values() {
        return values;
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
