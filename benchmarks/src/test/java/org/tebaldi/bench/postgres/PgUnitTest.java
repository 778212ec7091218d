package org.tebaldi.bench.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.bench.tpcc.TpccConfig;
import org.tebaldi.bench.tpcc.TpccSchema;
import org.tebaldi.bench.tpcc.sql.TpccSql;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.ColumnType;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/** The PostgreSQL target's parts that need no server: COPY encoding, DDL, server settings, error classes. */
class PgUnitTest {
    @Test
    void copyTextFormatEscapesAndMarksNulls() {
        Catalog c = new Catalog();
        TableSchema t = c.add("t", 2, 0, false, Catalog.longCol("a"), Catalog.doubleCol("b"),
                Catalog.stringCol("c"), new Column("d", ColumnType.BYTES), Catalog.stringCol("e"));
        CopyBuffer b = new CopyBuffer();
        b.append(Key.of(t, 7, -12), t.row(3L, 0.5, "x\\y\tz\nw\r", new byte[] {0x0a, (byte) 0xff}, null));
        b.append(Key.of(t, 1, 2), t.row(null, 1e-7, "é\t", null, ""));
        String s = new String(Arrays.copyOf(b.bytes(), b.size()), StandardCharsets.UTF_8);
        assertEquals("7\t-12\t3\t0.5\tx\\\\y\\tz\\nw\\r\t\\\\x0aff\t\\N\n"
                + "1\t2\t\\N\t1.0E-7\té\\t\t\\N\t\n", s);
    }

    @Test
    void tpccTablesHaveNamedKeysAndPrimaryKeys() {
        List<PgTables.Table> tables = PgTables.of(new TpccSchema().catalog(),
                new TpccSql(TpccConfig.spec(1)).keyColumns());
        PgTables.Table line = tables.stream().filter(x -> x.name().equals("order_line")).findFirst().orElseThrow();
        assertEquals("CREATE TABLE order_line (ol_w_id bigint NOT NULL, ol_d_id bigint NOT NULL, ol_o_id bigint NOT "
                + "NULL, ol_number bigint NOT NULL, ol_i_id bigint, ol_supply_w_id bigint, ol_delivery_d bigint, "
                + "ol_quantity bigint, ol_amount double precision, ol_dist_info text)", line.createSql());
        assertEquals("ALTER TABLE order_line ADD PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)",
                line.primaryKeySql());
        assertEquals(12, tables.size());
    }

    @Test
    void missingKeyNamesAreAProgrammingError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PgTables.of(new TpccSchema().catalog(), Map.of("warehouse", List.of("w_id"))));
        assertTrue(e.getMessage().contains("names no key columns for table district, which has 2 key parts"),
                e.getMessage());
    }

    @Test
    void serverSettingsAreSerializableWithoutFsyncAndUserSettingsWin() {
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("shared_buffers", "4GB");
        extra.put("log_line_prefix", "%m [%p] ");
        Map<String, String> s = LocalPostgres.settings(5433, Path.of("/tmp/x"), 80, false, extra);
        assertEquals("'serializable'", s.get("default_transaction_isolation"));
        assertEquals("off", s.get("fsync"));
        assertEquals("off", s.get("synchronous_commit"));
        assertEquals("'127.0.0.1'", s.get("listen_addresses"));
        assertEquals("80", s.get("max_connections"));
        assertEquals("4GB", s.get("shared_buffers"));
        assertEquals("'%m [%p] '", s.get("log_line_prefix"));
        assertEquals("on", LocalPostgres.settings(5433, Path.of("/tmp/x"), 80, true, Map.of()).get("fsync"));
    }

    @Test
    void onlySerializationFailuresAndDeadlocksAreRetryable() {
        assertTrue(PgErrors.retryable(new SQLException("x", "40001")));
        assertTrue(PgErrors.retryable(new SQLException("x", "40P01")));
        assertFalse(PgErrors.retryable(new SQLException("x", "23505")));
        assertFalse(PgErrors.retryable(new SQLException("x", "P0001")));
        assertTrue(PgErrors.connectionLost(new SQLException("x", "08006")));
        assertTrue(PgErrors.connectionLost(new SQLException("x", "57P01")));
        assertFalse(PgErrors.connectionLost(new SQLException("x", "40001")));
        assertEquals("deadlock_detected: x", PgErrors.abortReason(new SQLException("x", "40P01")));
    }
}
