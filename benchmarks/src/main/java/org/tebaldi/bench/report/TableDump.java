package org.tebaldi.bench.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/**
 * {@code --dump DIR} (docs/experiments.md, "Looking at runs"): every table of a run's final state as {@code DIR/<table>.csv}
 * (RFC 4180), so that anyone can check invariants with their own tools. One row per key (the latest committed,
 * non-deleted version; a replicated table once), sorted by key. Header: the key parts {@code key0, key1, ...} (the
 * store's keys are tuples of longs without names; e.g. TPC-C's {@code district} is {@code key0 = w_id,
 * key1 = d_id}, see the workload's schema) then the columns as the workload names them. Values: LONG as decimal,
 * DOUBLE as Java's shortest round-trip decimal, STRING as is (quoted when it holds a comma, quote or line break),
 * BYTES as {@code base64:<standard Base64>}; null as an empty field.
 */
public final class TableDump {
    /** Prefix of a BYTES value. */
    public static final String BYTES_PREFIX = "base64:";

    /**
     * What was written.
     *
     * @param dir  the dump directory
     * @param rows rows per table, by table name (sorted)
     */
    public record Written(Path dir, Map<String, Long> rows) {
        /** Total rows over all tables. */
        public long total() {
            return rows.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private TableDump() {
    }

    /**
     * Writes every table of {@code catalog} from {@code snapshot} into {@code dir} (created if missing; files of the
     * same name are replaced).
     *
     * @throws IOException if a file cannot be written
     */
    public static Written write(Path dir, Catalog catalog, DatabaseSnapshot snapshot) throws IOException {
        Files.createDirectories(dir);
        Map<String, Long> counts = new TreeMap<>();
        for (TableSchema t : catalog.tables()) {
            List<Map.Entry<Key, Row>> rows = new ArrayList<>();
            snapshot.forEach(t.name(), (k, r) -> rows.add(Map.entry(k, r)));
            rows.sort(Map.Entry.comparingByKey());
            try (BufferedWriter w = Files.newBufferedWriter(dir.resolve(t.name() + ".csv"), StandardCharsets.UTF_8)) {
                w.write(header(t));
                w.write('\n');
                StringBuilder line = new StringBuilder();
                for (Map.Entry<Key, Row> e : rows) {
                    line.setLength(0);
                    long[] parts = e.getKey().parts();
                    for (int i = 0; i < parts.length; i++) {
                        line.append(i > 0 ? "," : "").append(parts[i]);
                    }
                    for (int i = 0; i < t.columns().size(); i++) {
                        line.append(',').append(field(e.getValue().get(i)));
                    }
                    w.append(line).append('\n');
                }
            }
            counts.put(t.name(), (long) rows.size());
        }
        return new Written(dir, counts);
    }

    /** The header line (no newline): key parts then columns. */
    static String header(TableSchema t) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < t.keyArity(); i++) {
            b.append(i > 0 ? "," : "").append("key").append(i);
        }
        for (Column c : t.columns()) {
            b.append(',').append(quote(c.name()));
        }
        return b.toString();
    }

    /** One value as a CSV field. */
    static String field(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof byte[] bytes) {
            return BYTES_PREFIX + Base64.getEncoder().encodeToString(bytes);
        }
        return quote(v.toString());
    }

    private static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
