package org.tebaldi.bench.postgres;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.tebaldi.bench.driver.ClosedLoopDriver;
import org.tebaldi.bench.driver.DriverConfig;
import org.tebaldi.bench.driver.DriverResult;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.PostgresSpec;
import org.tebaldi.bench.run.Checks;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.sql.SqlWorkload;
import org.tebaldi.bench.workload.sql.SqlWorkloads;

/**
 * Runs one experiment with {@code target: postgresql} (the baseline of dissertation Table 5.2): the same workload
 * data, the same client request streams and the same closed-loop driver and metrics as a Tebaldi run, with each
 * transaction executed by the workload's SQL implementation over JDBC at SERIALIZABLE isolation.
 *
 * <p>Steps: the server — the one {@code postgresql.url} names, else a throw-away {@link LocalPostgres} (installed
 * first by {@code scripts/install-postgresql} if missing) that is stopped and deleted at the end; the database
 * ({@link PgDatabase}: schema, COPY load with progress, primary keys, functions); one {@link JdbcSession}
 * (connection and thread) per client; the driver; with {@code verify}, the workload's consistency conditions as SQL
 * queries. Serializability of the history is not checked on this target — PostgreSQL records no history; it
 * guarantees SERIALIZABLE with SSI — so {@code checks.serializable} is null with a report saying so. Message counts
 * are not collected ({@code messages} empty).
 */
public final class PostgresExperimentRun {
    /** What the serializability report says on this target. */
    public static final String NOT_CHECKED = "not checked (PostgreSQL records no history to check; the run relies "
            + "on its SERIALIZABLE isolation, serializable snapshot isolation)";
    private static final int SPARE_CONNECTIONS = 30;

    private final Experiment e;
    private final RunListener listener;

    /** @param listener receives install, load and run progress on the calling thread */
    public PostgresExperimentRun(Experiment experiment, RunListener listener) {
        if (!experiment.target().isPostgresql()) {
            throw new IllegalArgumentException("experiment " + experiment.name() + " targets "
                    + experiment.target().kind());
        }
        this.e = experiment;
        this.listener = listener;
    }

    /**
     * @throws RunFailedException if the server cannot be installed, started or reached, loading fails, the
     *                            connection is lost, or workload code threw
     * @throws InterruptedException if the calling thread is interrupted
     */
    public RunResult run() throws RunFailedException, InterruptedException {
        Workload w = e.workload();
        SqlWorkload sql = SqlWorkloads.bind(w);
        if (sql == null) {
            throw new RunFailedException("workload " + w.name() + " has no SQL implementation", null);
        }
        PostgresSpec spec = e.target().postgresql();
        LocalPostgres local = null;
        try {
            PgEndpoint endpoint;
            if (spec.local()) {
                PgBinaries bin = LocalPostgres.binaries(spec, listener::note);
                local = LocalPostgres.start(bin, spec, e.clients() + SPARE_CONNECTIONS, listener::note);
                endpoint = local.endpoint();
            } else {
                endpoint = new PgEndpoint(spec.url(), spec.user(), spec.password(), spec.url());
            }
            return runOn(new PgConnections(endpoint, spec.schema()), w, sql, local);
        } catch (IOException x) {
            throw new RunFailedException(x.getMessage(), x);
        } catch (SQLException x) {
            String tail = local == null ? "" : local.logTail(10);
            throw new RunFailedException("PostgreSQL: " + x.getMessage() + (tail.isEmpty() ? ""
                    : "\nserver log:\n" + tail), x);
        } finally {
            if (local != null) {
                listener.note("stopping the local PostgreSQL server and deleting " + local.directory());
                local.close();
            }
        }
    }

    private RunResult runOn(PgConnections conns, Workload w, SqlWorkload sql, LocalPostgres local)
            throws SQLException, InterruptedException, RunFailedException {
        listener.note("server: " + conns.endpoint().description());
        try (Connection c = conns.open()) {
            listener.note("connected: " + describe(c) + "; schema " + conns.schema() + " (dropped and re-created)");
        }
        long t0 = System.nanoTime();
        long rows = PgDatabase.prepare(conns, w, sql, listener::loading, listener::phase);
        long loadMillis = (System.nanoTime() - t0) / 1_000_000;
        listener.loaded(rows, loadMillis);

        AtomicReference<SQLException> lost = new AtomicReference<>();
        List<JdbcSession> sessions = new ArrayList<>(e.clients());
        DriverResult d;
        try {
            for (int i = 0; i < e.clients(); i++) {
                sessions.add(new JdbcSession(i, conns.open(), sql, x -> lost.compareAndSet(null, x)));
            }
            DriverConfig dc = new DriverConfig(e.clients(), e.warmup().minMicros(), e.warmup().maxMicros(),
                    e.durationMicros(), e.retry().backoffMicros(), e.retry().maxBackoffMicros(), e.seed(),
                    ExperimentRun.DRAIN_TIMEOUT_MILLIS, e.retry().byMechanismMicros());
            d = new ClosedLoopDriver(dc, new ProcedureRequests(w), sessions::get, null, listener::tick,
                    () -> lost.get() != null).monitor(new org.tebaldi.bench.driver.MachineMonitor(null)).run();
        } finally {
            for (JdbcSession s : sessions) {
                s.close(1_000);
            }
        }
        if (lost.get() != null) {
            String tail = local == null ? "" : local.logTail(10);
            throw new RunFailedException("lost the connection to PostgreSQL: " + lost.get().getMessage()
                    + (tail.isEmpty() ? "" : "\nserver log:\n" + tail), lost.get());
        }
        if (!d.failures().isEmpty()) {
            Throwable first = d.failures().get(0);
            throw new RunFailedException(d.failures().size() + " exception(s) in workload code run by the driver; "
                    + "first: " + first, first);
        }
        Checks checks = Checks.notChecked();
        if (e.verify()) {
            listener.phase("verifying (consistency in SQL; serializability " + "not checked on PostgreSQL)");
            ConsistencyResult consistency;
            try (Connection c = conns.open()) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                c.setReadOnly(true);
                consistency = sql.check(c);
                c.commit();
            }
            checks = new Checks(null, NOT_CHECKED, consistency);
        }
        return new RunResult(e, d, checks, e.clients(), rows, loadMillis);
    }

    private static String describe(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet r = st.executeQuery("SELECT current_setting('server_version'), "
                     + "current_setting('transaction_isolation'), current_setting('fsync'), "
                     + "current_setting('synchronous_commit')")) {
            r.next();
            return "PostgreSQL " + r.getString(1) + ", isolation " + r.getString(2) + ", fsync " + r.getString(3)
                    + ", synchronous_commit " + r.getString(4);
        }
    }
}
