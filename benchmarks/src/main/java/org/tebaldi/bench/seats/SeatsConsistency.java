package org.tebaldi.bench.seats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * The SEATS consistency conditions on a final state (docs/experiments.md "no seat reserved twice", docs/architecture.md, "Verification"), each
 * of which a lost update or a write skew between reservations breaks:
 * <ol>
 *   <li>no seat is reserved twice: no two reservations of a flight share a seat, no customer holds two reservations
 *       on one flight;</li>
 *   <li>the indexes agree with the reservations: every reservation has its {@code reservation_seat} and
 *       {@code reservation_customer} entries with the right ids and seat, and no entry lacks its reservation;</li>
 *   <li>seat counts: every flight's {@code f_seats_left} equals {@code f_seats_total} minus its reservations;</li>
 *   <li>customers: {@code c_reservations} counts the customer's reservations, and {@code c_balance} plus the prices
 *       of those reservations equals {@link SeatsLayout#INITIAL_BALANCE}.</li>
 * </ol>
 */
public final class SeatsConsistency {
    /** Most problems listed one by one; the rest are counted. */
    public static final int MAX_LISTED = 20;

    private final SeatsSchema schema;

    /** Checks databases of {@code schema}'s tables. */
    public SeatsConsistency(SeatsSchema schema) {
        this.schema = schema;
    }

    /** Checks conditions 1–4 of the class doc on {@code db}. */
    public ConsistencyResult check(DatabaseSnapshot db) {
        Problems p = new Problems();
        Map<Long, Integer> perFlight = new HashMap<>();
        Map<Long, long[]> perCustomer = new HashMap<>();
        Map<List<Long>, Long> seatHolder = new HashMap<>();
        Map<List<Long>, Long> customerFlight = new HashMap<>();
        long[] reservations = {0};
        db.forEach(SeatsSchema.RESERVATION, (k, r) -> {
            reservations[0]++;
            long f = k.part(0);
            long id = k.part(1);
            long c = r.getLong("r_c_id");
            long seat = r.getLong("r_seat");
            Long other = seatHolder.put(List.of(f, seat), id);
            if (other != null) {
                p.add("seat " + seat + " of flight " + f + " is reserved twice: reservations " + other + " and " + id);
            }
            other = customerFlight.put(List.of(c, f), id);
            if (other != null) {
                p.add("customer " + c + " holds two reservations on flight " + f + ": " + other + " and " + id);
            }
            perFlight.merge(f, 1, Integer::sum);
            long[] cs = perCustomer.computeIfAbsent(c, x -> new long[2]);
            cs[0]++;
            cs[1] += r.getLong("r_price");
            Row rs = db.get(Key.of(schema.reservationSeat(), f, seat));
            if (rs == null || rs.getLong("rs_r_id") != id || rs.getLong("rs_c_id") != c) {
                p.add("reservation " + id + " (flight " + f + ", seat " + seat + ", customer " + c
                        + ") has reservation_seat entry " + rs);
            }
            Row rc = db.get(Key.of(schema.reservationCustomer(), c, f));
            if (rc == null || rc.getLong("rc_r_id") != id || rc.getLong("rc_seat") != seat) {
                p.add("reservation " + id + " (flight " + f + ", seat " + seat + ", customer " + c
                        + ") has reservation_customer entry " + rc);
            }
        });
        db.forEach(SeatsSchema.RESERVATION_SEAT, (k, rs) -> {
            Row r = db.get(Key.of(schema.reservation(), k.part(0), rs.getLong("rs_r_id")));
            if (r == null || r.getLong("r_seat") != k.part(1)) {
                p.add("reservation_seat (" + k.part(0) + ", " + k.part(1) + ") names reservation "
                        + rs.getLong("rs_r_id") + ", which is " + r);
            }
        });
        db.forEach(SeatsSchema.RESERVATION_CUSTOMER, (k, rc) -> {
            Row r = db.get(Key.of(schema.reservation(), k.part(1), rc.getLong("rc_r_id")));
            if (r == null || r.getLong("r_c_id") != k.part(0)) {
                p.add("reservation_customer (" + k.part(0) + ", " + k.part(1) + ") names reservation "
                        + rc.getLong("rc_r_id") + ", which is " + r);
            }
        });
        long[] flights = {0};
        db.forEach(SeatsSchema.FLIGHT, (k, f) -> {
            flights[0]++;
            long taken = perFlight.getOrDefault(k.part(0), 0);
            long left = f.getLong("f_seats_left");
            long total = f.getLong("f_seats_total");
            if (left != total - taken) {
                p.add("flight " + k.part(0) + " has f_seats_left " + left + " but " + total + " seats and " + taken
                        + " reservations");
            }
        });
        db.forEach(SeatsSchema.CUSTOMER, (k, c) -> {
            long[] cs = perCustomer.getOrDefault(k.part(0), new long[2]);
            if (c.getLong("c_reservations") != cs[0]) {
                p.add("customer " + k.part(0) + " has c_reservations " + c.getLong("c_reservations") + " but holds "
                        + cs[0] + " reservations");
            }
            if (c.getLong("c_balance") + cs[1] != SeatsLayout.INITIAL_BALANCE) {
                p.add("customer " + k.part(0) + " has c_balance " + c.getLong("c_balance") + " and reservations worth "
                        + cs[1] + ", expected a total of " + SeatsLayout.INITIAL_BALANCE);
            }
        });
        for (long c : perCustomer.keySet()) {
            if (db.get(Key.of(schema.customer(), c)) == null) {
                p.add("reservations of missing customer " + c);
            }
        }
        String summary = reservations[0] + " reservations on " + flights[0] + " flights";
        if (p.count == 0) {
            return ConsistencyResult.ok(summary + ": no seat reserved twice, indexes agree, seat counts and customer"
                    + " balances consistent");
        }
        if (p.count > p.listed.size()) {
            p.listed.add("... and " + (p.count - p.listed.size()) + " more");
        }
        return ConsistencyResult.violated(summary + ": " + p.count + " problems", p.listed);
    }

    /** The problems found, the first {@link #MAX_LISTED} by name. */
    private static final class Problems {
        final List<String> listed = new ArrayList<>();
        int count;

        void add(String problem) {
            if (count++ < MAX_LISTED) {
                listed.add(problem);
            }
        }
    }
}
