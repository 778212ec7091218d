package org.tebaldi.core.model;

/**
 * Type of a column value. Values are stored boxed: {@link Long}, {@link Double}, {@link String}, {@code byte[]}.
 * DESIGN.md §4.
 */
public enum ColumnType {
    LONG, DOUBLE, STRING, BYTES;

    /** True if {@code v} is null or an instance of this type's Java class. */
    public boolean accepts(Object v) {
        if (v == null) {
            return true;
        }
        switch (this) {
            case LONG: return v instanceof Long;
            case DOUBLE: return v instanceof Double;
            case STRING: return v instanceof String;
            default: return v instanceof byte[];
        }
    }
}
