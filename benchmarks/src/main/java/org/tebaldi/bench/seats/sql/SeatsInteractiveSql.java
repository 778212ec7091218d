package org.tebaldi.bench.seats.sql;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tebaldi.bench.seats.FindFlights;
import org.tebaldi.bench.seats.FindOpenSeats;
import org.tebaldi.bench.seats.UpdateCustomer;
import org.tebaldi.bench.workload.sql.SqlCalls;
import org.tebaldi.bench.workload.sql.SqlSession;
import org.tebaldi.core.txn.Inputs;

/**
 * The interactive SEATS transactions in SQL, issued statement by statement from the client like the Tebaldi bodies
 * {@link UpdateCustomer}, {@link FindFlights} and {@link FindOpenSeats}, with the same inputs, the same rows read and
 * written, the same results and the same checks (a missing row fails with {@link IllegalStateException}: never with
 * valid inputs). Where the Tebaldi body reads rows one at a time, one query reads the same rows by key:
 *
 * <ul>
 *   <li>update_customer (c_id, attr0, attr1): {@code UPDATE customer ... RETURNING c_base_ap_id} (the Tebaldi body's
 *       read for update and write of the customer), then the home airport's code. Output {@code ap_code}.</li>
 *   <li>find_flights (depart_ap_id, arrive_ap_id), read-only: the airport's {@code ap_flights}, then its
 *       {@code airport_flights} entries {@code 0 .. ap_flights - 1} joined with their flights; keeps the flights to
 *       the arrival airport with seats left, in entry order. Output {@code flights} (a list of flight ids).</li>
 *   <li>find_open_seats (flight_id, first_seat, count), read-only: the flight's seat counts and base price, then the
 *       {@code reservation_seat} entries of the {@code min(count, f_seats_total)} consecutive seats from
 *       {@code first_seat} (wrapping around the flight); an absent entry is an open seat. Outputs {@code price}
 *       ({@code base + base * taken / total} cents), {@code seats_left}, {@code open} (the open seats in reading
 *       order).</li>
 * </ul>
 */
final class SeatsInteractiveSql {
    private SeatsInteractiveSql() {
    }

    private static final String UC_CUSTOMER = "UPDATE customer SET c_iattr00 = ?, c_iattr01 = ? WHERE c_id = ? "
            + "RETURNING c_base_ap_id";
    private static final String UC_AIRPORT = "SELECT ap_code FROM airport WHERE ap_id = ?";
    private static final String FF_AIRPORT = "SELECT ap_flights FROM airport WHERE ap_id = ?";
    private static final String FF_FLIGHTS = "SELECT af_k, af_f_id, f_id, f_arrive_ap_id, f_seats_left "
            + "FROM airport_flights LEFT JOIN flight ON f_id = af_f_id "
            + "WHERE af_ap_id = ? AND af_k >= 0 AND af_k < ? ORDER BY af_k";
    private static final String FOS_FLIGHT = "SELECT f_seats_total, f_seats_left, f_base_price FROM flight "
            + "WHERE f_id = ?";
    private static final String FOS_SEATS = "SELECT rs_seat FROM reservation_seat WHERE rs_f_id = ? "
            + "AND rs_seat = ANY (?)";

    /** update_customer; output {@code ap_code}. */
    static Map<String, Object> updateCustomer(SqlSession s, Inputs in) throws SQLException {
        long c = in.getLong(0);
        long ap;
        try (ResultSet r = SqlCalls.query(s, UC_CUSTOMER, in.getLong(1), in.getLong(2), c)) {
            if (!r.next()) {
                throw new IllegalStateException("update_customer: no customer " + c);
            }
            ap = r.getLong(1);
        }
        try (ResultSet r = SqlCalls.query(s, UC_AIRPORT, ap)) {
            if (!r.next()) {
                throw new IllegalStateException("update_customer: customer " + c + " has home airport " + ap
                        + ", which does not exist");
            }
            return Map.of("ap_code", r.getString(1));
        }
    }

    /** find_flights; output {@code flights}. */
    static Map<String, Object> findFlights(SqlSession s, Inputs in) throws SQLException {
        long depart = in.getLong(0);
        long arrive = in.getLong(1);
        long n;
        try (ResultSet r = SqlCalls.query(s, FF_AIRPORT, depart)) {
            if (!r.next()) {
                throw new IllegalStateException("find_flights: no airport " + depart);
            }
            n = r.getLong(1);
        }
        List<Long> found = new ArrayList<>();
        long k = 0;
        try (ResultSet r = SqlCalls.query(s, FF_FLIGHTS, depart, n)) {
            while (r.next()) {
                if (r.getLong(1) != k) {
                    break;
                }
                long id = r.getLong(2);
                r.getLong(3);
                if (r.wasNull()) {
                    throw new IllegalStateException("find_flights: airport_flights names missing flight " + id);
                }
                if (r.getLong(4) == arrive && r.getLong(5) > 0) {
                    found.add(id);
                }
                k++;
            }
        }
        if (k != n) {
            throw new IllegalStateException("find_flights: airport " + depart + " has " + n + " flights but entry "
                    + k + " is missing");
        }
        return Map.of("flights", found);
    }

    /** find_open_seats; outputs {@code price}, {@code seats_left}, {@code open}. */
    static Map<String, Object> findOpenSeats(SqlSession s, Inputs in) throws SQLException {
        long f = in.getLong(0);
        long first = in.getLong(1);
        long count = in.getLong(2);
        long total;
        long left;
        long base;
        try (ResultSet r = SqlCalls.query(s, FOS_FLIGHT, f)) {
            if (!r.next()) {
                throw new IllegalStateException("find_open_seats: no flight " + f);
            }
            total = r.getLong(1);
            left = r.getLong(2);
            base = r.getLong(3);
        }
        long price = base + base * (total - left) / total;
        int n = (int) Math.min(count, total);
        Long[] seats = new Long[n];
        for (int i = 0; i < n; i++) {
            seats[i] = (first + i) % total;
        }
        Set<Long> taken = new HashSet<>();
        PreparedStatement ps = s.prepare(FOS_SEATS);
        Array array = s.connection().createArrayOf("bigint", seats);
        ps.setLong(1, f);
        ps.setArray(2, array);
        try (ResultSet r = ps.executeQuery()) {
            while (r.next()) {
                taken.add(r.getLong(1));
            }
        } finally {
            array.free();
        }
        List<Long> open = new ArrayList<>();
        for (Long seat : seats) {
            if (!taken.contains(seat)) {
                open.add(seat);
            }
        }
        return Map.of("price", price, "seats_left", left, "open", open);
    }
}
