package org.tebaldi.bench.seats.sql;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.tebaldi.bench.seats.SeatsConsistency;
import org.tebaldi.bench.seats.SeatsLayout;
import org.tebaldi.bench.workload.ConsistencyResult;

/**
 * The SEATS consistency conditions checked on a SQL database with queries that return only violations: the same
 * conditions, wording, summary and listing limit as {@link SeatsConsistency} on a Tebaldi cluster's final state
 * (only the order in which problems are listed differs: by condition here).
 *
 * <ol>
 *   <li>no seat is reserved twice: no two reservations of a flight share a seat, no customer holds two reservations
 *       on one flight;</li>
 *   <li>the indexes agree with the reservations: every reservation has its {@code reservation_seat} and
 *       {@code reservation_customer} entries with the right ids and seat, and no entry lacks its reservation;</li>
 *   <li>seat counts: every flight's {@code f_seats_left} equals {@code f_seats_total} minus its reservations;</li>
 *   <li>customers: {@code c_reservations} counts the customer's reservations, and {@code c_balance} plus the prices
 *       of those reservations equals {@link SeatsLayout#INITIAL_BALANCE}; no reservation names a missing
 *       customer.</li>
 * </ol>
 */
final class SeatsSqlConsistency {
    private final List<String> listed = new ArrayList<>();
    private int count;

    private SeatsSqlConsistency() {
    }

    /** Runs every check on {@code c} (search path set to the SEATS schema), ideally in one snapshot. */
    static ConsistencyResult check(Connection c) throws SQLException {
        SeatsSqlConsistency x = new SeatsSqlConsistency();
        try (Statement st = c.createStatement()) {
            x.twice(st);
            x.indexes(st);
            x.flights(st);
            x.customers(st);
            return x.result(st);
        }
    }

    private void add(String problem) {
        if (count++ < SeatsConsistency.MAX_LISTED) {
            listed.add(problem);
        }
    }

    /** Condition 1; {@code k} reservations sharing a seat (or customer and flight) are {@code k - 1} problems. */
    private void twice(Statement st) throws SQLException {
        try (ResultSet r = st.executeQuery("SELECT r_f_id, r_seat, array_agg(r_id ORDER BY r_id) FROM reservation "
                + "GROUP BY r_f_id, r_seat HAVING count(*) > 1 ORDER BY 1, 2")) {
            while (r.next()) {
                Long[] ids = ids(r.getArray(3));
                for (int i = 1; i < ids.length; i++) {
                    add("seat " + r.getLong(2) + " of flight " + r.getLong(1) + " is reserved twice: reservations "
                            + ids[i - 1] + " and " + ids[i]);
                }
            }
        }
        try (ResultSet r = st.executeQuery("SELECT r_c_id, r_f_id, array_agg(r_id ORDER BY r_id) FROM reservation "
                + "GROUP BY r_c_id, r_f_id HAVING count(*) > 1 ORDER BY 1, 2")) {
            while (r.next()) {
                Long[] ids = ids(r.getArray(3));
                for (int i = 1; i < ids.length; i++) {
                    add("customer " + r.getLong(1) + " holds two reservations on flight " + r.getLong(2) + ": "
                            + ids[i - 1] + " and " + ids[i]);
                }
            }
        }
    }

    private static Long[] ids(Array a) throws SQLException {
        try {
            return (Long[]) a.getArray();
        } finally {
            a.free();
        }
    }

    /** Condition 2, both directions. Rows print as the Tebaldi check prints them: {@code table[values]}. */
    private void indexes(Statement st) throws SQLException {
        try (ResultSet r = st.executeQuery("SELECT r_id, r_f_id, r_seat, r_c_id, rs_f_id IS NOT NULL, rs_r_id, rs_c_id "
                + "FROM reservation LEFT JOIN reservation_seat ON rs_f_id = r_f_id AND rs_seat = r_seat "
                + "WHERE rs_f_id IS NULL OR rs_r_id IS DISTINCT FROM r_id OR rs_c_id IS DISTINCT FROM r_c_id "
                + "ORDER BY r_f_id, r_id")) {
            while (r.next()) {
                add(reservation(r) + " has reservation_seat entry " + row(r, "reservation_seat", 5, 2));
            }
        }
        try (ResultSet r = st.executeQuery("SELECT r_id, r_f_id, r_seat, r_c_id, rc_c_id IS NOT NULL, rc_r_id, "
                + "rc_seat FROM reservation LEFT JOIN reservation_customer ON rc_c_id = r_c_id AND rc_f_id = r_f_id "
                + "WHERE rc_c_id IS NULL OR rc_r_id IS DISTINCT FROM r_id OR rc_seat IS DISTINCT FROM r_seat "
                + "ORDER BY r_f_id, r_id")) {
            while (r.next()) {
                add(reservation(r) + " has reservation_customer entry " + row(r, "reservation_customer", 5, 2));
            }
        }
        String reservationColumns = "r_f_id IS NOT NULL, r_c_id, r_seat, r_price, r_iattr00";
        try (ResultSet r = st.executeQuery("SELECT rs_f_id, rs_seat, rs_r_id, " + reservationColumns
                + " FROM reservation_seat LEFT JOIN reservation ON r_f_id = rs_f_id AND r_id = rs_r_id "
                + "WHERE r_f_id IS NULL OR r_seat IS DISTINCT FROM rs_seat ORDER BY 1, 2")) {
            while (r.next()) {
                add("reservation_seat (" + r.getLong(1) + ", " + r.getLong(2) + ") names reservation "
                        + value(r, 3) + ", which is " + row(r, "reservation", 4, 4));
            }
        }
        try (ResultSet r = st.executeQuery("SELECT rc_c_id, rc_f_id, rc_r_id, " + reservationColumns
                + " FROM reservation_customer LEFT JOIN reservation ON r_f_id = rc_f_id AND r_id = rc_r_id "
                + "WHERE r_f_id IS NULL OR r_c_id IS DISTINCT FROM rc_c_id ORDER BY 1, 2")) {
            while (r.next()) {
                add("reservation_customer (" + r.getLong(1) + ", " + r.getLong(2) + ") names reservation "
                        + value(r, 3) + ", which is " + row(r, "reservation", 4, 4));
            }
        }
    }

    /** Columns r_id, r_f_id, r_seat, r_c_id at 1..4. */
    private static String reservation(ResultSet r) throws SQLException {
        return "reservation " + r.getLong(1) + " (flight " + r.getLong(2) + ", seat " + value(r, 3) + ", customer "
                + value(r, 4) + ")";
    }

    /** {@code null} if the boolean at {@code exists} is false, else {@code table[v1, ..., vn]} from the next n. */
    private static String row(ResultSet r, String table, int exists, int n) throws SQLException {
        if (!r.getBoolean(exists)) {
            return "null";
        }
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            values.add(value(r, exists + i));
        }
        return table + values;
    }

    private static String value(ResultSet r, int i) throws SQLException {
        return String.valueOf(r.getObject(i));
    }

    /** Condition 3. */
    private void flights(Statement st) throws SQLException {
        try (ResultSet r = st.executeQuery("SELECT f_id, f_seats_left, f_seats_total, coalesce(n, 0) FROM flight "
                + "LEFT JOIN (SELECT r_f_id, count(*) AS n FROM reservation GROUP BY r_f_id) x ON r_f_id = f_id "
                + "WHERE f_seats_left IS DISTINCT FROM f_seats_total - coalesce(n, 0) ORDER BY f_id")) {
            while (r.next()) {
                add("flight " + r.getLong(1) + " has f_seats_left " + value(r, 2) + " but " + value(r, 3)
                        + " seats and " + r.getLong(4) + " reservations");
            }
        }
    }

    /** Condition 4. */
    private void customers(Statement st) throws SQLException {
        long initial = SeatsLayout.INITIAL_BALANCE;
        try (ResultSet r = st.executeQuery("SELECT c_id, c_reservations, c_balance, coalesce(n, 0), "
                + "coalesce(s, 0)::bigint FROM customer LEFT JOIN (SELECT r_c_id, count(*) AS n, sum(r_price) AS s "
                + "FROM reservation GROUP BY r_c_id) x ON r_c_id = c_id "
                + "WHERE c_reservations IS DISTINCT FROM coalesce(n, 0) "
                + "OR c_balance + coalesce(s, 0) IS DISTINCT FROM " + initial + " ORDER BY c_id")) {
            while (r.next()) {
                long c = r.getLong(1);
                long n = r.getLong(4);
                long spent = r.getLong(5);
                long reservations = r.getLong(2);
                if (r.wasNull() || reservations != n) {
                    add("customer " + c + " has c_reservations " + value(r, 2) + " but holds " + n
                            + " reservations");
                }
                long balance = r.getLong(3);
                if (r.wasNull() || balance + spent != initial) {
                    add("customer " + c + " has c_balance " + value(r, 3) + " and reservations worth " + spent
                            + ", expected a total of " + initial);
                }
            }
        }
        try (ResultSet r = st.executeQuery("SELECT DISTINCT r_c_id FROM reservation WHERE NOT EXISTS "
                + "(SELECT 1 FROM customer WHERE c_id = r_c_id) ORDER BY 1")) {
            while (r.next()) {
                add("reservations of missing customer " + value(r, 1));
            }
        }
    }

    private ConsistencyResult result(Statement st) throws SQLException {
        long reservations;
        long flights;
        try (ResultSet r = st.executeQuery("SELECT (SELECT count(*) FROM reservation), "
                + "(SELECT count(*) FROM flight)")) {
            r.next();
            reservations = r.getLong(1);
            flights = r.getLong(2);
        }
        String summary = reservations + " reservations on " + flights + " flights";
        if (count == 0) {
            return ConsistencyResult.ok(summary + ": no seat reserved twice, indexes agree, seat counts and customer"
                    + " balances consistent");
        }
        if (count > listed.size()) {
            listed.add("... and " + (count - listed.size()) + " more");
        }
        return ConsistencyResult.violated(summary + ": " + count + " problems", listed);
    }
}
