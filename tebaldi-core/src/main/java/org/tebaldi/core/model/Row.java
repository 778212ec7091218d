package org.tebaldi.core.model;

import java.util.Arrays;

/**
 * An immutable row: column values in schema order. Updates return new rows ({@link #with}).
 * Values are {@link Long}, {@link Double}, {@link String} or {@code byte[]} (docs/architecture.md, "Transactions").
 */
public final class Row {
    private final TableSchema table;
    private final Object[] values;

    private Row(TableSchema table, Object[] values) {
        this.table = table;
        this.values = values;
    }

    /**
     * A row from values in column order (copied).
     *
     * @throws IllegalArgumentException on a wrong value count or a value of the wrong type
     */
    public static Row of(TableSchema table, Object... values) {
        if (values.length != table.columns().size()) {
            throw new IllegalArgumentException("table " + table.name() + " has " + table.columns().size()
                    + " columns, got " + values.length + " values");
        }
        for (int i = 0; i < values.length; i++) {
            if (!table.columns().get(i).type().accepts(values[i])) {
                throw new IllegalArgumentException("table " + table.name() + " column " + table.columns().get(i).name()
                        + " is " + table.columns().get(i).type() + ", got " + values[i].getClass().getSimpleName());
            }
        }
        return new Row(table, values.clone());
    }

    public TableSchema table() {
        return table;
    }

    public int size() {
        return values.length;
    }

    public Object get(int i) {
        return values[i];
    }

    public Object get(String column) {
        return values[table.column(column)];
    }

    /** @throws NullPointerException if the value is null; ClassCastException if not a long column */
    public long getLong(String column) {
        return (Long) get(column);
    }

    public double getDouble(String column) {
        return (Double) get(column);
    }

    public String getString(String column) {
        return (String) get(column);
    }

    /** A copy with column {@code i} set to {@code v}. @throws IllegalArgumentException on a type mismatch */
    public Row with(int i, Object v) {
        if (!table.columns().get(i).type().accepts(v)) {
            throw new IllegalArgumentException("column " + table.columns().get(i).name() + " is "
                    + table.columns().get(i).type() + ", got " + v.getClass().getSimpleName());
        }
        Object[] copy = values.clone();
        copy[i] = v;
        return new Row(table, copy);
    }

    /** A copy with the named column set. */
    public Row with(String column, Object v) {
        return with(table.column(column), v);
    }

    /** The values in column order (a copy). */
    public Object[] values() {
        return values.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row r && r.table == table && Arrays.deepEquals(values, r.values);
    }

    @Override
    public int hashCode() {
        return 31 * table.id() + Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return table.name() + Arrays.deepToString(values);
    }
}
