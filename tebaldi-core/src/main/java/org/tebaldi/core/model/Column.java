package org.tebaldi.core.model;

/** A named, typed column of a table. */
public record Column(String name, ColumnType type) {
}
