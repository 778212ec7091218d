package org.tebaldi.bench.micro;

import java.util.LinkedHashMap;
import java.util.Map;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/**
 * The tables of a microbenchmark: each keyed by one long ({@code 0 .. rows-1}, partitioned by key modulo the data
 * servers), its first column {@code cnt} (long, 0 at load) counting the increments of the transactions that write
 * it, then any extra long columns (0 at load). Lets a workload load every row and sum a column after the run, the
 * base of every microbenchmark's consistency conditions (equal sums where every transaction increments one row of
 * each of several tables). Not thread-safe while tables are added; read-only afterwards.
 */
final class CounterTables {
    /** Name of the counter column every table has. */
    static final String CNT = "cnt";

    private final Catalog catalog = new Catalog();
    private final Map<String, Integer> rows = new LinkedHashMap<>();

    /**
     * Adds a table of {@code rows} rows (0: empty at load) with columns {@code cnt} and {@code extra}.
     *
     * @throws IllegalArgumentException for a duplicate name or a negative row count
     */
    TableSchema add(String name, int rows, String... extra) {
        if (rows < 0) {
            throw new IllegalArgumentException("table " + name + " cannot have " + rows + " rows");
        }
        Column[] cols = new Column[1 + extra.length];
        cols[0] = Catalog.longCol(CNT);
        for (int i = 0; i < extra.length; i++) {
            cols[i + 1] = Catalog.longCol(extra[i]);
        }
        TableSchema t = catalog.add(name, 1, 0, false, cols);
        this.rows.put(name, rows);
        return t;
    }

    /** The catalog of the tables added. */
    Catalog catalog() {
        return catalog;
    }

    /** Rows of table {@code name}. @throws IllegalArgumentException for an unknown table */
    int rows(String name) {
        Integer n = rows.get(name);
        if (n == null) {
            throw new IllegalArgumentException("unknown table " + name);
        }
        return n;
    }

    /** Loads every row of every table with all columns 0, reporting per table. */
    void load(DataLoader loader, Progress progress) {
        rows.forEach(loader::expect);
        for (Map.Entry<String, Integer> e : rows.entrySet()) {
            TableSchema t = catalog.table(e.getKey());
            Object[] zeros = new Object[t.columns().size()];
            java.util.Arrays.fill(zeros, 0L);
            for (int k = 0; k < e.getValue(); k++) {
                loader.load(Key.of(t, k), t.row(zeros));
            }
            if (e.getValue() > 0) {
                progress.report(e.getKey(), e.getValue(), e.getValue());
            }
        }
    }

    /** Adds a problem for every table whose row count differs from the number loaded. */
    void checkRowCounts(DatabaseSnapshot s, java.util.List<String> problems) {
        rows.forEach((name, n) -> {
            long found = s.count(name);
            if (found != n) {
                problems.add("table " + name + " has " + found + " rows, loaded " + n);
            }
        });
    }

    /** Sum of column {@code column} over the rows of {@code table} in {@code s}. */
    static long sum(DatabaseSnapshot s, String table, String column) {
        long[] total = {0};
        s.forEach(table, (k, r) -> total[0] += r.getLong(column));
        return total[0];
    }
}
