package org.tebaldi.bench.postgres;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.TableSchema;

/**
 * The SQL tables of a workload's catalog (see {@link org.tebaldi.bench.workload.sql.SqlWorkload}): per table the key
 * parts as {@code bigint NOT NULL} columns named by the workload, then the catalog's columns (LONG {@code bigint},
 * DOUBLE {@code double precision}, STRING {@code text}, BYTES {@code bytea}, all nullable).
 */
final class PgTables {
    /**
     * One table.
     *
     * @param schema     the catalog table
     * @param keyColumns SQL names of its key parts, in order
     */
    record Table(TableSchema schema, List<String> keyColumns) {
        String name() {
            return ident(schema.name());
        }

        /** {@code CREATE TABLE} without the primary key (added after loading). */
        String createSql() {
            List<String> cols = new ArrayList<>();
            keyColumns.forEach(k -> cols.add(ident(k) + " bigint NOT NULL"));
            for (Column c : schema.columns()) {
                cols.add(ident(c.name()) + " " + switch (c.type()) {
                    case LONG -> "bigint";
                    case DOUBLE -> "double precision";
                    case STRING -> "text";
                    case BYTES -> "bytea";
                });
            }
            return "CREATE TABLE " + name() + " (" + String.join(", ", cols) + ")";
        }

        /** {@code ALTER TABLE ... ADD PRIMARY KEY (key columns)}. */
        String primaryKeySql() {
            return "ALTER TABLE " + name() + " ADD PRIMARY KEY (" + String.join(", ",
                    keyColumns.stream().map(PgTables::ident).toList()) + ")";
        }

        /** {@code COPY ... FROM STDIN} in text format, frozen (the table is truncated in the same transaction). */
        String copySql() {
            return "COPY " + name() + " FROM STDIN WITH (FREEZE)";
        }
    }

    private PgTables() {
    }

    /**
     * The tables of {@code catalog}.
     *
     * @param keyColumns key column names by table name
     * @throws IllegalStateException if a table has no key names or the wrong number of them
     */
    static List<Table> of(Catalog catalog, Map<String, List<String>> keyColumns) {
        List<Table> out = new ArrayList<>();
        for (TableSchema t : catalog.tables()) {
            List<String> keys = keyColumns.get(t.name());
            if (keys == null || keys.size() != t.keyArity()) {
                throw new IllegalStateException("the SQL implementation names " + (keys == null ? "no" : keys.size())
                        + " key columns for table " + t.name() + ", which has " + t.keyArity() + " key parts");
            }
            out.add(new Table(t, List.copyOf(keys)));
        }
        return out;
    }

    /** A plain lower-case identifier as is, anything else double-quoted. */
    static String ident(String name) {
        return name.matches("[a-z_][a-z0-9_]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
