package org.tebaldi.bench.postgres;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.tebaldi.bench.experiment.PostgresSpec;
import org.tebaldi.bench.run.ClusterSnapshot;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.sql.SqlWorkload;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/** What the PostgreSQL tests share: a throw-away local server, and reading a loaded schema back as rows. */
final class PgTestServer {
    private PgTestServer() {
    }

    /**
     * Starts a throw-away server on loopback (the caller closes it), installing the server binaries first with
     * {@code scripts/install-postgresql} where they are missing, as the tests' other servers are set up by the tests
     * themselves; skips the test class (with the installer's message) only where that is impossible.
     */
    static LocalPostgres start() throws Exception {
        PgBinaries bin = PgBinaries.find(null);
        String installError = null;
        if (bin == null) {
            try {
                PgInstaller.install(Path.of("..").resolve(PgInstaller.SCRIPT).toAbsolutePath().normalize(), line -> { });
            } catch (java.io.IOException e) {
                installError = e.getMessage();
            }
            bin = PgBinaries.find(null);
        }
        Assumptions.assumeTrue(bin != null, "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found and "
                + "scripts/install-postgresql could not install them: " + installError);
        Assumptions.assumeTrue(!Commands.root() || Commands.userExists(Commands.SERVER_USER),
                "running as root and there is no user 'postgres' to run the server as");
        return LocalPostgres.start(bin, PostgresSpec.DEFAULT, 40, line -> { });
    }

    /**
     * The rows of {@code w}'s tables in {@code schema} as a snapshot Tebaldi's checks read: each SQL row back to its
     * catalog key and row (the columns in catalog order after the key columns, as {@link PgTables} creates them).
     */
    static ClusterSnapshot snapshot(PgConnections conns, Workload w, SqlWorkload sql) throws SQLException {
        Map<Key, Row> rows = new HashMap<>();
        try (Connection c = conns.open(); Statement st = c.createStatement()) {
            for (PgTables.Table t : PgTables.of(w.database().catalog(), sql.keyColumns())) {
                int keys = t.keyColumns().size();
                try (ResultSet r = st.executeQuery("SELECT * FROM " + t.name())) {
                    while (r.next()) {
                        long[] parts = new long[keys];
                        for (int i = 0; i < keys; i++) {
                            parts[i] = r.getLong(i + 1);
                        }
                        List<Object> values = new ArrayList<>();
                        for (int i = 0; i < t.schema().columns().size(); i++) {
                            values.add(r.getObject(keys + i + 1));
                        }
                        rows.put(Key.of(t.schema(), parts), t.schema().row(values.toArray()));
                    }
                }
            }
        }
        return ClusterSnapshot.ofRows(w.database().catalog(), List.of(rows));
    }
}
