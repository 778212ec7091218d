package org.tebaldi.bench.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * Loads a workload's initial data into PostgreSQL with {@code COPY ... FROM STDIN}: the workload's own loader hands
 * rows one at a time in its order; each table gets its own connection and COPY stream (opened at its first row,
 * inside a transaction that first truncates the table, so the rows are written frozen and, with
 * {@code wal_level=minimal}, without WAL), fed in 256 KiB chunks. {@link #finish()} ends every stream and commits.
 * Not thread-safe: the workload loads on one thread.
 */
final class PgCopyLoader implements DataLoader, AutoCloseable {
    private static final int CHUNK = 256 * 1024;

    private final PgConnections conns;
    private final Map<Integer, PgTables.Table> byId = new HashMap<>();
    private final Map<String, PgTables.Table> byName = new HashMap<>();
    private final Map<Integer, Stream> streams = new HashMap<>();
    private final Map<String, Long> expected = new HashMap<>();
    private long rows;

    /** One table's COPY stream. */
    private static final class Stream {
        final Connection c;
        final CopyIn in;
        final CopyBuffer buf = new CopyBuffer();

        Stream(Connection c, CopyIn in) {
            this.c = c;
            this.in = in;
        }
    }

    PgCopyLoader(PgConnections conns, List<PgTables.Table> tables) {
        this.conns = conns;
        for (PgTables.Table t : tables) {
            byId.put(t.schema().id(), t);
            byName.put(t.schema().name(), t);
        }
    }

    @Override
    public void expect(String table, long rows) {
        if (!byName.containsKey(table)) {
            throw new IllegalArgumentException("no table '" + table + "'");
        }
        if (rows < 0) {
            throw new IllegalArgumentException("negative row count " + rows + " for " + table);
        }
        expected.putIfAbsent(table, rows);
    }

    /** The rows announced with {@link #expect}, in total. */
    long expectedRows() {
        return expected.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public void load(Key key, Row row) {
        PgTables.Table t = byId.get(key.table());
        if (t == null || row.table() != t.schema()) {
            throw new IllegalArgumentException("row of " + row.table().name() + " under a key of table id "
                    + key.table());
        }
        try {
            Stream s = streams.get(key.table());
            if (s == null) {
                s = open(t);
                streams.put(key.table(), s);
            }
            s.buf.append(key, row);
            if (s.buf.size() >= CHUNK) {
                flush(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("COPY into " + t.name() + " failed: " + e.getMessage(), e);
        }
        rows++;
    }

    private Stream open(PgTables.Table t) throws SQLException {
        Connection c = conns.open();
        try {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("TRUNCATE " + t.name());
            }
            return new Stream(c, c.unwrap(PGConnection.class).getCopyAPI().copyIn(t.copySql()));
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static void flush(Stream s) throws SQLException {
        if (s.buf.size() > 0) {
            s.in.writeToCopy(s.buf.bytes(), 0, s.buf.size());
            s.buf.clear();
        }
    }

    /**
     * Ends every COPY stream and commits.
     *
     * @return rows loaded
     * @throws SQLException if a COPY or commit fails
     */
    long finish() throws SQLException {
        List<Stream> all = new ArrayList<>(streams.values());
        for (Stream s : all) {
            flush(s);
            s.in.endCopy();
            s.c.commit();
        }
        close();
        return rows;
    }

    /** Rows handed over so far. */
    long rows() {
        return rows;
    }

    /** Cancels unfinished streams and closes every connection. */
    @Override
    public void close() {
        for (Stream s : streams.values()) {
            try {
                if (s.in.isActive()) {
                    s.in.cancelCopy();
                }
            } catch (SQLException e) {
                // closing anyway
            }
            try {
                s.c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
        streams.clear();
    }
}
