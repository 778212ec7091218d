package org.tebaldi.bench.seats.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.seats.DeleteReservation;
import org.tebaldi.bench.seats.FindFlights;
import org.tebaldi.bench.seats.FindOpenSeats;
import org.tebaldi.bench.seats.NewReservation;
import org.tebaldi.bench.seats.SeatsSchema;
import org.tebaldi.bench.seats.UpdateCustomer;
import org.tebaldi.bench.seats.UpdateReservation;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.sql.SqlCalls;
import org.tebaldi.bench.workload.sql.SqlTxn;
import org.tebaldi.bench.workload.sql.SqlWorkload;

/**
 * SEATS in SQL (PostgreSQL dialect), the same adaptation as the Tebaldi version (dissertation §4.6.2, see
 * {@link SeatsSchema}): the same tables (key columns named after benchbase: {@code f_id}, {@code c_id},
 * {@code r_f_id, r_id}, {@code rs_f_id, rs_seat}, {@code rc_c_id, rc_f_id}, {@code ap_id}, {@code af_ap_id, af_k}),
 * loaded from the same loader; new_reservation, delete_reservation and update_reservation as stored functions called
 * in one statement ({@link SeatsFunctions}); update_customer, find_flights and find_open_seats as client-issued
 * transactions, the last two read-only ({@link SeatsInteractiveSql}); the consistency conditions as SQL queries
 * ({@link SeatsSqlConsistency}). The primary keys are the only indexes: every access is by key or key prefix.
 */
public final class SeatsSql implements SqlWorkload {
    private static final Map<String, List<String>> KEYS = Map.of(
            SeatsSchema.AIRPORT, List.of("ap_id"),
            SeatsSchema.AIRPORT_FLIGHTS, List.of("af_ap_id", "af_k"),
            SeatsSchema.FLIGHT, List.of("f_id"),
            SeatsSchema.CUSTOMER, List.of("c_id"),
            SeatsSchema.RESERVATION, List.of("r_f_id", "r_id"),
            SeatsSchema.RESERVATION_SEAT, List.of("rs_f_id", "rs_seat"),
            SeatsSchema.RESERVATION_CUSTOMER, List.of("rc_c_id", "rc_f_id"));

    private final Map<String, SqlTxn> txns = new LinkedHashMap<>();

    /** The SQL implementation of SEATS (any scale: the functions and queries do not depend on it). */
    public SeatsSql() {
        txns.put(NewReservation.NAME, SqlTxn.procedure((s, in) -> Map.of("reserved",
                SqlCalls.scalar(s, SeatsFunctions.CALL_NEW_RESERVATION, in))));
        txns.put(DeleteReservation.NAME, SqlTxn.procedure((s, in) -> Map.of("deleted",
                SqlCalls.scalar(s, SeatsFunctions.CALL_DELETE_RESERVATION, in))));
        txns.put(UpdateReservation.NAME, SqlTxn.procedure((s, in) -> Map.of("moved",
                SqlCalls.scalar(s, SeatsFunctions.CALL_UPDATE_RESERVATION, in))));
        txns.put(UpdateCustomer.NAME, SqlTxn.interactive(SeatsInteractiveSql::updateCustomer));
        txns.put(FindFlights.NAME, SqlTxn.readOnly(SeatsInteractiveSql::findFlights));
        txns.put(FindOpenSeats.NAME, SqlTxn.readOnly(SeatsInteractiveSql::findOpenSeats));
    }

    @Override
    public Map<String, List<String>> keyColumns() {
        return KEYS;
    }

    @Override
    public List<String> setup() {
        return SeatsFunctions.create();
    }

    @Override
    public SqlTxn txn(String type) {
        SqlTxn t = txns.get(type);
        if (t == null) {
            throw new IllegalArgumentException("SEATS has no transaction type '" + type + "'; types: "
                    + txns.keySet());
        }
        return t;
    }

    @Override
    public ConsistencyResult check(Connection c) throws SQLException {
        return SeatsSqlConsistency.check(c);
    }
}
