package org.tebaldi.core.model;

/**
 * Type of a column value. Values are stored boxed: {@link Long}, {@link Double}, {@link String}, {@code byte[]}.
 * docs/architecture.md, "Transactions".
 */
public enum ColumnType {
    LONG(Long.class), DOUBLE(Double.class), STRING(String.class), BYTES(byte[].class);

    private final Class<?> javaClass;

    ColumnType(Class<?> javaClass) {
        this.javaClass = javaClass;
    }

    /** True if {@code v} is null or of this type's Java class (the value classes are final: identity suffices). */
    public boolean accepts(Object v) {
        return v == null || v.getClass() == javaClass;
    }
}
