package org.tebaldi.bench.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tebaldi.bench.driver.TypeStats;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.tpcc.NewOrder;
import org.tebaldi.bench.tpcc.Payment;
import org.tebaldi.bench.tpcc.TpccConfig;
import org.tebaldi.bench.tpcc.TpccWorkload;
import org.tebaldi.bench.tpcc.sql.TpccSqlProvider;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.sql.SqlSession;
import org.tebaldi.bench.workload.sql.SqlWorkload;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnAbortedException;

/**
 * The PostgreSQL target against a throw-away server this class starts itself ({@link LocalPostgres} on loopback,
 * stopped and deleted afterwards): TPC-C with 1 warehouse run for a few seconds by the closed-loop driver and
 * checked (conditions 1–4 hold); the SQL consistency check catching deliberately broken data; a serialization
 * failure turned into a retryable abort; transactions of different warehouses, open side by side, all committing;
 * a failing procedure turned into an error; and a whole run on a local server
 * the run starts by itself. Where no PostgreSQL server binaries are installed the test installs them first with
 * {@code scripts/install-postgresql} (apt-get, as root or password-less sudo); skipped, with the installer's message,
 * only where that is impossible.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresTargetTest {
    /** A tiny TPC-C for the checks that need data but no load time. */
    private static final TpccConfig TINY = TpccConfig.spec(1).withItems(1000).withCustomersPerDistrict(30)
            .withOrdersPerDistrict(30);

    private LocalPostgres pg;

    @BeforeAll
    void start() throws Exception {
        pg = PgTestServer.start();
    }

    @AfterAll
    void stop() {
        if (pg != null) {
            Path dir = pg.directory();
            pg.close();
            assertFalse(Files.exists(dir), "the server's temporary directory is deleted");
        }
    }

    private Experiment experiment(String yaml) {
        return ExperimentLoader.parse(yaml, Path.of("pg-test.yaml"), List.of(), Path.of(""));
    }

    @Test
    void tpccOneWarehouseRunsAndStaysConsistent() throws Exception {
        Experiment e = experiment("""
                name: pg-tpcc
                target: postgresql
                postgresql: {url: '%s', user: tebaldi, schema: tpcc_run}
                workload: {name: tpcc, warehouses: 1}
                clients: 6
                warmup: 500ms
                duration: 3s
                verify: true
                """.formatted(pg.endpoint().url()));
        RunResult r = new PostgresExperimentRun(e, new RunListener() { }).run();
        assertEquals(628_846, r.rows(), "1 warehouse at spec scale");
        for (String type : List.of("new_order", "payment", "delivery", "order_status", "stock_level")) {
            TypeStats s = r.driver().types().get(type);
            assertTrue(s.committed() > 0, type + " committed nothing: " + s);
            assertEquals(0, s.errors(), type + " had errors: " + r.driver().errorSamples());
        }
        assertNull(r.checks().serializable(), "serializability is not checked on PostgreSQL");
        assertEquals(PostgresExperimentRun.NOT_CHECKED, r.checks().report());
        assertTrue(r.checks().consistency().consistent(), r.checks().consistency().summary());
        assertTrue(r.checks().passed());
        assertTrue(r.driver().messages().isEmpty());
    }

    private SqlWorkload tiny(String schema) throws Exception {
        return tiny(schema, TINY);
    }

    private SqlWorkload tiny(String schema, TpccConfig cfg) throws Exception {
        TpccWorkload w = new TpccWorkload(cfg);
        SqlWorkload sql = new TpccSqlProvider().bind(w);
        PgConnections conns = new PgConnections(pg.endpoint(), schema);
        PgDatabase.prepare(conns, w, sql, Progress.NONE, line -> { });
        return sql;
    }

    private ConsistencyResult check(SqlWorkload sql, String schema) throws SQLException {
        try (Connection c = new PgConnections(pg.endpoint(), schema).open()) {
            return sql.check(c);
        }
    }

    @Test
    void consistencyCheckInSqlFindsBrokenConditions() throws Exception {
        SqlWorkload sql = tiny("broken");
        assertTrue(check(sql, "broken").consistent(), "freshly loaded data is consistent");
        try (Connection c = new PgConnections(pg.endpoint(), "broken").open(); Statement st = c.createStatement()) {
            st.execute("UPDATE warehouse SET w_ytd = w_ytd + 10 WHERE w_id = 1");
            st.execute("DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = 5 AND ol_number = 1");
            st.execute("DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 3 AND no_o_id = 25");
            st.execute("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = 4");
            st.execute("UPDATE customer_last_order SET clo_o_id = 999 WHERE clo_w_id = 1 AND clo_d_id = 5 "
                    + "AND clo_c_id = 7");
        }
        ConsistencyResult r = check(sql, "broken");
        assertFalse(r.consistent());
        String all = String.join("\n", r.problems());
        assertTrue(all.contains("condition 1 WAREHOUSE_YTD at warehouse 1: W_YTD = 300010.00 but sum(D_YTD) = "
                + "300000.00 over 10 districts"), all);
        assertTrue(all.contains("condition 4 ORDER_LINE_COUNT at district (1, 2)"), all);
        assertTrue(all.contains("condition 3 NEW_ORDER_RANGE at district (1, 3)"), all);
        assertTrue(all.contains("condition 2 NEXT_ORDER_ID at district (1, 4): D_NEXT_O_ID - 1 = 31 but max(O_ID) "
                + "= 30"), all);
        assertTrue(all.contains("LAST_ORDER_INDEX at customer (1, 5, 7): clo_o_id = 999 but there is no such order"),
                all);
        assertEquals(6, r.problems().size(), all);
    }

    @Test
    void serializationFailureIsARetryableAbort() throws Exception {
        SqlWorkload sql = tiny("conflict");
        PgConnections conns = new PgConnections(pg.endpoint(), "conflict");
        AtomicReference<SQLException> lost = new AtomicReference<>();
        try (Connection other = conns.open(); JdbcSession s = new JdbcSession(0, conns.open(), sql, lost::set)) {
            other.setAutoCommit(false);
            try (Statement st = other.createStatement()) {
                st.execute("UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 1");
            }
            CompletableFuture<CommitInfo> f = s.call(Payment.NAME, Payment.inputs(1, 1, 1, 1, 1, 10.0, 1, 0), 0);
            Thread.sleep(300);
            assertFalse(f.isDone(), "the payment waits for the other transaction's row lock");
            other.commit();
            ExecutionException x = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> f.get(10, TimeUnit.SECONDS));
            TxnAbortedException a = assertInstanceOf(TxnAbortedException.class, x.getCause());
            assertTrue(a.retryable());
            assertEquals("serialization_failure: could not serialize access due to concurrent update",
                    a.getMessage());
            CommitInfo retry = s.call(Payment.NAME, Payment.inputs(1, 1, 1, 1, 1, 10.0, 1, 0), 0)
                    .get(10, TimeUnit.SECONDS);
            assertEquals(-10.0 - 10.0, (Double) retry.outputs().get("c_balance"), 1e-9,
                    "the retry commits (loaded balance -10.00, minus the payment)");
        }
        assertNull(lost.get());
    }

    /**
     * Transactions of different warehouses touch disjoint rows, so SERIALIZABLE has no reason to fail any of them:
     * each pair below is held open side by side on two connections set up as the run's client sessions are
     * ({@link SqlWorkload#sessionSetup()}), then both commit without a serialization failure. This needs the
     * predicate locks to be on the rows and index pages read: a sequential scan of the small warehouse or district
     * table (which the planner prefers without the TPC-C session setup) locks the whole table, the two transactions
     * then read what the other writes, and one of each pair fails.
     */
    @Test
    void transactionsOfDifferentWarehousesDoNotFailEachOther() throws Exception {
        SqlWorkload sql = tiny("disjoint", TINY.withWarehouses(2));
        PgConnections conns = new PgConnections(pg.endpoint(), "disjoint");
        long[] items = {1, 2, 3, 4, 5};
        long[] qty = {1, 2, 3, 4, 5};
        Inputs newOrder1 = NewOrder.inputs(1, 1, 1, items, new long[]{1, 1, 1, 1, 1}, qty, 0);
        Inputs newOrder2 = NewOrder.inputs(2, 10, 30, items, new long[]{2, 2, 2, 2, 2}, qty, 0);
        bothCommit(sql, conns, NewOrder.NAME, newOrder1, Payment.NAME, Payment.inputs(2, 10, 2, 10, 30, 10.0, 1, 0));
        bothCommit(sql, conns, Payment.NAME, Payment.inputs(1, 1, 1, 1, 1, 10.0, 2, 0),
                Payment.NAME, Payment.inputs(2, 10, 2, 10, 30, 10.0, 3, 0));
        bothCommit(sql, conns, NewOrder.NAME, newOrder1, NewOrder.NAME, newOrder2);
        assertTrue(check(sql, "disjoint").consistent(), check(sql, "disjoint").summary());
    }

    /** Runs {@code typeA} on one connection and {@code typeB} on another, both open at once, then commits both. */
    private static void bothCommit(SqlWorkload sql, PgConnections conns, String typeA, Inputs a, String typeB,
                                   Inputs b) throws SQLException {
        try (OpenTxn first = new OpenTxn(conns.open(), sql); OpenTxn second = new OpenTxn(conns.open(), sql)) {
            String pair = typeA + " " + a + " beside " + typeB + " " + b;
            try {
                sql.txn(typeA).run(first, a);
                sql.txn(typeB).run(second, b);
                first.c.commit();
                second.c.commit();
            } catch (SQLException e) {
                org.junit.jupiter.api.Assertions.fail(pair + " failed (SQLSTATE " + e.getSQLState() + "): "
                        + e.getMessage(), e);
            }
        }
    }

    /** A connection with the workload's session setup and a transaction left open (no autocommit). */
    private static final class OpenTxn implements SqlSession, AutoCloseable {
        private final Connection c;
        private final Map<String, PreparedStatement> prepared = new HashMap<>();

        OpenTxn(Connection c, SqlWorkload sql) throws SQLException {
            this.c = c;
            try (Statement st = c.createStatement()) {
                for (String s : sql.sessionSetup()) {
                    st.execute(s);
                }
            }
            c.setAutoCommit(false);
        }

        @Override
        public Connection connection() {
            return c;
        }

        @Override
        public PreparedStatement prepare(String sql) throws SQLException {
            PreparedStatement ps = prepared.get(sql);
            if (ps == null) {
                ps = c.prepareStatement(sql);
                prepared.put(sql, ps);
            }
            return ps;
        }

        @Override
        public void close() throws SQLException {
            c.close();
        }
    }

    @Test
    void failingProcedureIsAnErrorNotAnAbort() throws Exception {
        SqlWorkload sql = tiny("errors");
        PgConnections conns = new PgConnections(pg.endpoint(), "errors");
        try (JdbcSession s = new JdbcSession(0, conns.open(), sql, x -> { })) {
            ExecutionException x = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> s.call(Payment.NAME, Payment.inputs(1, 1, 1, 1, 999, 10.0, 1, 0), 0)
                            .get(10, TimeUnit.SECONDS));
            SQLException e = assertInstanceOf(SQLException.class, x.getCause());
            assertEquals("P0001", e.getSQLState());
            assertTrue(e.getMessage().contains("payment: no such customer 999"), e.getMessage());
            assertFalse(PgErrors.retryable(e));
            // the session is still usable
            assertTrue(s.call(Payment.NAME, Payment.inputs(1, 1, 1, 1, 1, 10.0, 2, 0), 0).get(10, TimeUnit.SECONDS)
                    .outputs().containsKey("c_balance"));
        }
    }

    @Test
    void runStartsAndStopsItsOwnLocalServer() throws Exception {
        Experiment e = experiment("""
                name: pg-local
                target: postgresql
                workload: {name: tpcc, warehouses: 1, items: 1000, customersPerDistrict: 30, ordersPerDistrict: 30}
                clients: 2
                duration: 1s
                verify: true
                """);
        StringBuilder notes = new StringBuilder();
        RunResult r = new PostgresExperimentRun(e, new RunListener() {
            @Override
            public void note(String line) {
                notes.append(line).append('\n');
            }
        }).run();
        assertTrue(r.driver().total().committed() > 0);
        assertTrue(r.checks().passed(), r.checks().consistency().summary());
        String text = notes.toString();
        assertTrue(text.contains("isolation serializable, fsync off"), text);
        String dir = text.replaceAll("(?s).*deleting (\\S+)\n.*", "$1");
        assertFalse(Files.exists(Path.of(dir)), "deleted: " + dir + " (notes: " + text + ")");
    }
}
