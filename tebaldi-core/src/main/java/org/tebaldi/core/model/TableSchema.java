package org.tebaldi.core.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Schema of one table: rows are addressed by a primary key of {@code keyArity} long parts and hold named typed
 * columns (docs/architecture.md, "Transactions"). {@code partitionPart} names the key part whose value decides the data server
 * ({@code -1}: hash of the whole key); a {@code replicated} table is read-only after loading and present on every
 * data server (e.g. TPC-C's {@code item}).
 */
public final class TableSchema {
    private final int id;
    private final String name;
    private final int keyArity;
    private final List<Column> columns;
    private final int partitionPart;
    private final boolean replicated;
    private final Map<String, Integer> index = new HashMap<>();

    /**
     * @throws IllegalArgumentException on duplicate column names, arity &lt; 1 or a partition part out of range
     */
    public TableSchema(int id, String name, int keyArity, List<Column> columns, int partitionPart, boolean replicated) {
        if (keyArity < 1) {
            throw new IllegalArgumentException("table " + name + ": key arity must be >= 1");
        }
        if (partitionPart < -1 || partitionPart >= keyArity) {
            throw new IllegalArgumentException("table " + name + ": partition part " + partitionPart + " out of range");
        }
        this.id = id;
        this.name = name;
        this.keyArity = keyArity;
        this.columns = List.copyOf(columns);
        this.partitionPart = partitionPart;
        this.replicated = replicated;
        for (int i = 0; i < this.columns.size(); i++) {
            if (index.put(this.columns.get(i).name(), i) != null) {
                throw new IllegalArgumentException("table " + name + ": duplicate column " + this.columns.get(i).name());
            }
        }
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    public int keyArity() {
        return keyArity;
    }

    public List<Column> columns() {
        return columns;
    }

    public int partitionPart() {
        return partitionPart;
    }

    public boolean replicated() {
        return replicated;
    }

    /**
     * Position of a column.
     *
     * @throws IllegalArgumentException if the table has no such column
     */
    public int column(String column) {
        Integer i = index.get(column);
        if (i == null) {
            throw new IllegalArgumentException("table " + name + " has no column '" + column + "'; columns: "
                    + columns.stream().map(Column::name).toList());
        }
        return i;
    }

    /** True if the table has a column of that name. */
    public boolean hasColumn(String column) {
        return index.containsKey(column);
    }

    /** Builds a row from values given in column order. */
    public Row row(Object... values) {
        return Row.of(this, values);
    }

    @Override
    public String toString() {
        return name;
    }
}
