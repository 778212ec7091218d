package org.tebaldi.bench.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tebaldi.bench.driver.TypeStats;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.run.ClusterSnapshot;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.seats.FindFlights;
import org.tebaldi.bench.seats.FindOpenSeats;
import org.tebaldi.bench.seats.SeatsConfig;
import org.tebaldi.bench.seats.SeatsLayout;
import org.tebaldi.bench.seats.SeatsLoader;
import org.tebaldi.bench.seats.SeatsMix;
import org.tebaldi.bench.seats.SeatsWorkload;
import org.tebaldi.bench.seats.UpdateCustomer;
import org.tebaldi.bench.seats.sql.SeatsSqlProvider;
import org.tebaldi.bench.sim.SimSeeds;
import org.tebaldi.bench.sim.SimWorkloadRun;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.bench.workload.sql.SqlWorkload;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.SimulatedRuntime;

/**
 * SEATS on the PostgreSQL target against a throw-away server this class starts itself (as
 * {@link PostgresTargetTest}): the same request stream run one at a time on a simulated Tebaldi cluster and on
 * PostgreSQL gives the same outputs and the same final rows; a short closed-loop run under contention stays
 * consistent (checked in SQL, and by the Tebaldi check on the rows read back); and on deliberately broken data the
 * SQL check finds exactly the problems {@link org.tebaldi.bench.seats.SeatsConsistency} finds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeatsPostgresTest {
    /** 3 flights of 24 seats, 40% booked, 40 customers (as the SEATS simulation tests). */
    private static final SeatsConfig SMALL = new SeatsConfig(3, 24, 40, 3, 0.4, 6, 7L);

    private LocalPostgres pg;

    @BeforeAll
    void start() throws Exception {
        pg = PgTestServer.start();
    }

    @AfterAll
    void stop() {
        if (pg != null) {
            pg.close();
        }
    }

    private PgConnections prepare(SeatsWorkload w, SqlWorkload sql, String schema) throws Exception {
        PgConnections conns = new PgConnections(pg.endpoint(), schema);
        PgDatabase.prepare(conns, w, sql, Progress.NONE, line -> { });
        return conns;
    }

    @Test
    void sameRequestsGiveSameOutputsAndRowsAsTebaldi() throws Exception {
        SeatsWorkload w = new SeatsWorkload(SMALL);
        SqlWorkload sql = new SeatsSqlProvider().bind(w);
        PgConnections conns = prepare(w, sql, "seats_same");
        ClientSource client = w.newClient(0, 11);
        List<TxnRequest> requests = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            requests.add(client.next());
        }
        Map<String, Long> changed = new TreeMap<>();
        try (SimWorkloadRun teb = new SimWorkloadRun(w, SimSeeds.shippedTree("seats-2pl", w), 3,
                SimulatedRuntime.Model.jittery(), 1, 1);
             JdbcSession s = new JdbcSession(0, conns.open(), sql, x -> { })) {
            for (int i = 0; i < requests.size(); i++) {
                TxnRequest req = requests.get(i);
                Object expected = asOutputs(req.type(), teb.run(req));
                Map<String, Object> actual = s.call(req.type(), req.inputs(), 0).get(10, TimeUnit.SECONDS).outputs();
                assertEquals(expected, actual, "request " + i + ": " + req.type() + " " + req.inputs());
                actual.forEach((k, v) -> {
                    if (v instanceof Long n) {
                        changed.merge(req.type() + "." + k, n, Long::sum);
                    }
                });
            }
            for (String out : List.of("new_reservation.reserved", "delete_reservation.deleted",
                    "update_reservation.moved")) {
                assertTrue(changed.getOrDefault(out, 0L) > 0, "no " + out + " in " + changed);
            }
            List<String> diff = differences(w, teb.snapshot(), PgTestServer.snapshot(conns, w, sql));
            assertTrue(diff.isEmpty(), "final rows differ (Tebaldi vs PostgreSQL), first of " + diff.size() + ":\n"
                    + String.join("\n", diff.subList(0, Math.min(10, diff.size()))));
        }
    }

    /** A Tebaldi result as the SQL implementation's outputs. */
    private static Object asOutputs(String type, Object result) {
        return switch (type) {
            case FindFlights.NAME -> Map.of("flights", result);
            case FindOpenSeats.NAME -> {
                FindOpenSeats.Result r = (FindOpenSeats.Result) result;
                yield Map.of("price", r.price(), "seats_left", r.seatsLeft(), "open", r.open());
            }
            case UpdateCustomer.NAME -> Map.of("ap_code", result);
            default -> result;
        };
    }

    /** Rows that differ between two snapshots, one line each. */
    private static List<String> differences(SeatsWorkload w, ClusterSnapshot tebaldi, ClusterSnapshot postgres) {
        List<String> out = new ArrayList<>();
        for (var t : w.database().catalog().tables()) {
            Map<Key, Row> a = new HashMap<>();
            tebaldi.forEach(t.name(), a::put);
            Map<Key, Row> b = new HashMap<>();
            postgres.forEach(t.name(), b::put);
            Set<Key> keys = new TreeSet<>(a.keySet());
            keys.addAll(b.keySet());
            for (Key k : keys) {
                if (!Objects.equals(a.get(k), b.get(k))) {
                    out.add(t.name() + " " + k + ": Tebaldi " + a.get(k) + ", PostgreSQL " + b.get(k));
                }
            }
        }
        return out;
    }

    @Test
    void seatsRunsAndStaysConsistent() throws Exception {
        Experiment e = ExperimentLoader.parse("""
                name: pg-seats
                target: postgresql
                postgresql: {url: '%s', user: tebaldi, schema: seats_run}
                workload: {name: seats, flights: 4, seatsPerFlight: 10000, customers: 10000, airports: 3}
                clients: 6
                warmup: 500ms
                duration: 3s
                verify: true
                """.formatted(pg.endpoint().url()), Path.of("pg-test.yaml"), List.of(), Path.of(""));
        RunResult r = new PostgresExperimentRun(e, new RunListener() { }).run();
        StringBuilder counts = new StringBuilder("SEATS on PostgreSQL, 6 clients on 4 flights (committed/aborted):");
        r.driver().types().forEach((t, s) -> counts.append(' ').append(t).append('=').append(s.committed())
                .append('/').append(s.aborted()));
        System.out.println(counts);
        SeatsWorkload w = (SeatsWorkload) e.workload();
        SqlWorkload sql = new SeatsSqlProvider().bind(w);
        long loaded = new SeatsLoader(w.schema(), w.layout()).expectedRows().values()
                .stream().mapToLong(Long::longValue).sum();
        assertEquals(loaded, r.rows());
        for (String type : SeatsMix.TYPES) {
            TypeStats s = r.driver().types().get(type);
            assertTrue(s.committed() > 0, type + " committed nothing: " + s);
            assertEquals(0, s.errors(), type + " had errors: " + r.driver().errorSamples());
        }
        assertNull(r.checks().serializable(), "serializability is not checked on PostgreSQL");
        assertTrue(r.checks().consistency().consistent(), r.checks().consistency().summary());
        assertTrue(r.checks().passed());
        PgConnections conns = new PgConnections(pg.endpoint(), "seats_run");
        try (Connection c = conns.open(); Statement st = c.createStatement();
             ResultSet q = st.executeQuery("SELECT (SELECT count(*) FROM reservation WHERE r_id >= "
                     + SeatsLayout.FIRST_RUNTIME_RESERVATION_ID + "), (SELECT count(*) FROM reservation WHERE "
                     + "r_iattr00 <> 0), (SELECT count(*) FROM customer WHERE c_iattr00 <> 0)")) {
            q.next();
            assertTrue(q.getLong(1) > 0 && q.getLong(2) > 0 && q.getLong(3) > 0, "the run reserved, moved and "
                    + "updated: " + q.getLong(1) + ", " + q.getLong(2) + ", " + q.getLong(3));
        }
        ConsistencyResult tebaldiCheck = w.check(PgTestServer.snapshot(conns, w, sql));
        assertTrue(tebaldiCheck.consistent(), tebaldiCheck.summary() + " " + tebaldiCheck.problems());
        assertEquals(tebaldiCheck.summary(), r.checks().consistency().summary());
    }

    @Test
    void sqlCheckFindsWhatTheTebaldiCheckFindsInBrokenData() throws Exception {
        SeatsWorkload w = new SeatsWorkload(SMALL);
        SqlWorkload sql = new SeatsSqlProvider().bind(w);
        PgConnections conns = prepare(w, sql, "seats_broken");
        assertTrue(check(sql, conns).consistent(), "freshly loaded data is consistent");
        long f;
        long r0;
        long seat;
        long c0;
        long free;
        try (Connection c = conns.open(); Statement st = c.createStatement()) {
            try (ResultSet q = st.executeQuery("SELECT r_f_id, r_id, r_seat, r_c_id FROM reservation "
                    + "ORDER BY r_f_id, r_id LIMIT 1")) {
                q.next();
                f = q.getLong(1);
                r0 = q.getLong(2);
                seat = q.getLong(3);
                c0 = q.getLong(4);
            }
            long c1 = firstLong(st, "SELECT c_id FROM customer WHERE c_id NOT IN (SELECT rc_c_id FROM "
                    + "reservation_customer WHERE rc_f_id = " + f + ") ORDER BY c_id LIMIT 1");
            free = firstLong(st, "SELECT s FROM generate_series(0, 23) s WHERE s NOT IN (SELECT rs_seat FROM "
                    + "reservation_seat WHERE rs_f_id = 1) ORDER BY s LIMIT 1");
            // a second reservation of a taken seat, written without its index rows, seat count or customer update
            st.execute("INSERT INTO reservation VALUES (" + f + ", 999, " + c1 + ", " + seat + ", 100, 0)");
            st.execute("UPDATE flight SET f_seats_left = f_seats_left - 1 WHERE f_id = 2");
            st.execute("DELETE FROM reservation_customer WHERE (rc_c_id, rc_f_id) = (SELECT r_c_id, r_f_id "
                    + "FROM reservation WHERE r_f_id = 1 ORDER BY r_id LIMIT 1)");
            st.execute("INSERT INTO reservation_seat VALUES (1, " + free + ", 12345, 1)");
            st.execute("UPDATE customer SET c_balance = c_balance + 1 WHERE c_id = 0");
        }
        ConsistencyResult bySql = check(sql, conns);
        ConsistencyResult byTebaldi = w.check(PgTestServer.snapshot(conns, w, sql));
        assertFalse(bySql.consistent());
        String all = String.join("\n", bySql.problems());
        assertTrue(all.contains("seat " + seat + " of flight " + f + " is reserved twice: reservations " + r0
                + " and 999"), all);
        assertTrue(all.contains("reservation 999 (flight " + f + ", seat " + seat + ", customer "), all);
        assertTrue(all.contains("has reservation_seat entry reservation_seat[" + r0 + ", " + c0 + "]"), all);
        assertTrue(all.contains("flight 2 has f_seats_left "), all);
        assertTrue(all.contains("reservation_seat (1, " + free + ") names reservation 12345, which is null"), all);
        assertTrue(all.contains("customer 0 has c_balance "), all);
        assertEquals(byTebaldi.summary(), bySql.summary());
        assertEquals(new TreeSet<>(byTebaldi.problems()), new TreeSet<>(bySql.problems()),
                "the same problems as SeatsConsistency");
        assertTrue(bySql.problems().size() >= 9 && bySql.problems().size() < 20, all);
    }

    private static long firstLong(Statement st, String query) throws SQLException {
        try (ResultSet r = st.executeQuery(query)) {
            assertTrue(r.next(), "no row: " + query);
            return r.getLong(1);
        }
    }

    private static ConsistencyResult check(SqlWorkload sql, PgConnections conns) throws SQLException {
        try (Connection c = conns.open()) {
            return sql.check(c);
        }
    }
}
