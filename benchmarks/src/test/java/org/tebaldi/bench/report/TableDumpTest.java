package org.tebaldi.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.ColumnType;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/** {@link TableDump}'s file format: header, key order, quoting, nulls, BYTES as Base64. */
class TableDumpTest {
    @TempDir
    Path tmp;

    @Test
    void writesOneSortedCsvPerTableWithItsEncoding() throws Exception {
        Catalog c = new Catalog();
        TableSchema t = c.add("t", 2, 0, false, new Column("name", ColumnType.STRING),
                new Column("x", ColumnType.DOUBLE), new Column("raw", ColumnType.BYTES),
                new Column("n", ColumnType.LONG));
        c.add("empty", 1, 0, false);
        Map<Key, Row> rows = Map.of(
                Key.of(t, 2, 1), t.row("a,\"b\"", 0.1, new byte[] {0, (byte) 255}, 7L),
                Key.of(t, 1, 9), t.row("plain", null, null, -3L));
        DatabaseSnapshot snap = new DatabaseSnapshot() {
            @Override
            public Row get(Key key) {
                return rows.get(key);
            }

            @Override
            public void forEach(String table, BiConsumer<Key, Row> visitor) {
                if (table.equals("t")) {
                    rows.forEach(visitor);
                }
            }

            @Override
            public long count(String table) {
                return table.equals("t") ? rows.size() : 0;
            }
        };
        TableDump.Written w = TableDump.write(tmp.resolve("d"), c, snap);
        assertEquals(Map.of("t", 2L, "empty", 0L), w.rows());
        assertEquals(2, w.total());
        assertEquals(List.of("key0,key1,name,x,raw,n", "1,9,plain,,,-3", "2,1,\"a,\"\"b\"\"\",0.1,base64:AP8=,7"),
                Files.readAllLines(tmp.resolve("d/t.csv")));
        assertEquals(List.of("key0"), Files.readAllLines(tmp.resolve("d/empty.csv")));
    }
}
