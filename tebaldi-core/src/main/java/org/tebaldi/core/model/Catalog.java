package org.tebaldi.core.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The tables of a database, addressable by id (dense, from 0) and by name. */
public final class Catalog {
    private final List<TableSchema> tables = new ArrayList<>();
    private final Map<String, TableSchema> byName = new HashMap<>();

    /**
     * Adds a table; its id is the next dense id.
     *
     * @param partitionPart key part used for partitioning, or -1 to hash the whole key
     * @throws IllegalArgumentException if a table of that name exists
     */
    public TableSchema add(String name, int keyArity, int partitionPart, boolean replicated, Column... columns) {
        if (byName.containsKey(name)) {
            throw new IllegalArgumentException("duplicate table " + name);
        }
        TableSchema t = new TableSchema(tables.size(), name, keyArity, List.of(columns), partitionPart, replicated);
        tables.add(t);
        byName.put(name, t);
        return t;
    }

    /** @throws IllegalArgumentException if there is no table of that name */
    public TableSchema table(String name) {
        TableSchema t = byName.get(name);
        if (t == null) {
            throw new IllegalArgumentException("unknown table '" + name + "'; tables: " + byName.keySet());
        }
        return t;
    }

    /** @throws IndexOutOfBoundsException for an unknown id */
    public TableSchema table(int id) {
        return tables.get(id);
    }

    public List<TableSchema> tables() {
        return Collections.unmodifiableList(tables);
    }

    /** Shorthand for {@code new Column(name, ColumnType.LONG)}. */
    public static Column longCol(String name) {
        return new Column(name, ColumnType.LONG);
    }

    /** Shorthand for a double column. */
    public static Column doubleCol(String name) {
        return new Column(name, ColumnType.DOUBLE);
    }

    /** Shorthand for a string column. */
    public static Column stringCol(String name) {
        return new Column(name, ColumnType.STRING);
    }
}
