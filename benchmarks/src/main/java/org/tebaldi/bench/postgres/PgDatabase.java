package org.tebaldi.bench.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.sql.SqlWorkload;

/**
 * Prepares a workload's database on a PostgreSQL server: drops and re-creates the workload's schema, creates the
 * tables ({@link PgTables}), loads the workload's initial data with COPY ({@link PgCopyLoader}), adds the primary
 * keys (two at a time), runs the SQL implementation's setup (stored functions, secondary indexes), then
 * {@code ANALYZE} and {@code CHECKPOINT} so the measured run starts with statistics and without a pending
 * checkpoint.
 */
final class PgDatabase {
    private static final int INDEX_BUILDERS = 2;

    private PgDatabase() {
    }

    /**
     * @param progress load progress (the workload's own stages)
     * @param notes    one line per step after the load
     * @return rows loaded
     * @throws SQLException if a statement fails
     */
    static long prepare(PgConnections conns, Workload w, SqlWorkload sql, Progress progress, Consumer<String> notes)
            throws SQLException, InterruptedException {
        List<PgTables.Table> tables = PgTables.of(w.database().catalog(), sql.keyColumns());
        try (Connection c = conns.open(); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + conns.schema() + " CASCADE");
            st.execute("CREATE SCHEMA " + conns.schema());
            for (PgTables.Table t : tables) {
                st.execute(t.createSql());
            }
        }
        long rows;
        try (PgCopyLoader loader = new PgCopyLoader(conns, tables)) {
            w.load(loader, progress);
            rows = loader.finish();
        }
        notes.accept("adding primary keys");
        addPrimaryKeys(conns, tables);
        try (Connection c = conns.open(); Statement st = c.createStatement()) {
            notes.accept("creating the SQL implementation's functions and indexes");
            for (String s : sql.setup()) {
                st.execute(s);
            }
            notes.accept("ANALYZE, CHECKPOINT");
            st.execute("ANALYZE");
            try {
                st.execute("CHECKPOINT");
            } catch (SQLException e) {
                // CHECKPOINT needs superuser (or pg_checkpoint) rights on a server we were given; it only helps
            }
        }
        return rows;
    }

    private static void addPrimaryKeys(PgConnections conns, List<PgTables.Table> tables)
            throws SQLException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(INDEX_BUILDERS, r -> {
            Thread t = new Thread(r, "tebaldi-pg-index");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (PgTables.Table t : tables) {
                done.add(pool.submit(() -> {
                    try (Connection c = conns.open(); Statement st = c.createStatement()) {
                        st.execute(t.primaryKeySql());
                    }
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof SQLException s) {
                        throw s;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
