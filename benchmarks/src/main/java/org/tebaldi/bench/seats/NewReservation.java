package org.tebaldi.bench.seats;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * SEATS new_reservation as a stored procedure (benchbase NewReservation, adapted after dissertation §4.6.2): checks
 * that the seat is free ({@code reservation_seat}) and that the customer holds no seat on the flight
 * ({@code reservation_customer}); if both hold, takes one seat off the flight (read-modify-write of
 * {@code f_seats_left}), charges the customer the price and counts the reservation, and inserts the reservation and
 * its two index rows. Otherwise it commits without writing (benchbase returns too).
 *
 * <p>The flight is updated right after the two checks, not read first and written last as in benchbase: one
 * exclusive access instead of a shared lock upgraded later (which deadlocks every pair of reservations on a flight
 * under 2PL), and an early write that a timestamp-ordering pipeline can hand on to the next reservation of the
 * flight. The price grows with the flight's seats taken: {@code base + base * taken / total} cents, {@code taken}
 * counting this seat.
 *
 * <p>Inputs, in order (all Long): {@code flight_id}, {@code c_id}, {@code seat}, {@code r_id} (a new reservation
 * id, unique in the run). Output: {@code reserved} (1 if the seat was reserved, else 0). A missing flight or
 * customer, or a flight found overbooked, is a user abort (never in a serializable run of valid inputs).
 */
public final class NewReservation {
    /** Transaction type name. */
    public static final String NAME = "new_reservation";

    private NewReservation() {
    }

    /** The procedure over {@code schema}'s catalog. */
    public static Procedure procedure(SeatsSchema schema) {
        return Procedure.define(NAME, schema.catalog())
                .params("flight_id", "c_id", "seat", "r_id")
                .body(b -> {
                    b.read(SeatsSchema.RESERVATION_SEAT, "rs", in("flight_id"), in("seat"));
                    b.read(SeatsSchema.RESERVATION_CUSTOMER, "rc", in("c_id"), in("flight_id"));
                    b.let("reserved", lit(0L));
                    b.ifThen(and(isNull(local("rs")), isNull(local("rc"))), t -> {
                        t.update(SeatsSchema.FLIGHT, "f",
                                List.of(set("f_seats_left", sub(col("f_seats_left"), lit(1L)))), in("flight_id"));
                        t.abortIf(isNull(local("f")), "new_reservation: no such flight");
                        t.abortIf(lt(field("f", "f_seats_left"), lit(0L)), "new_reservation: flight overbooked");
                        t.let("price", add(field("f", "f_base_price"), div(mul(field("f", "f_base_price"),
                                        sub(field("f", "f_seats_total"), field("f", "f_seats_left"))),
                                field("f", "f_seats_total"))));
                        t.update(SeatsSchema.CUSTOMER, "c", List.of(
                                        set("c_balance", sub(col("c_balance"), local("price"))),
                                        set("c_reservations", add(col("c_reservations"), lit(1L)))),
                                in("c_id"));
                        t.abortIf(isNull(local("c")), "new_reservation: no such customer");
                        t.write(SeatsSchema.RESERVATION, row("r_c_id", in("c_id"), "r_seat", in("seat"),
                                "r_price", local("price"), "r_iattr00", lit(0L)), in("flight_id"), in("r_id"));
                        t.write(SeatsSchema.RESERVATION_SEAT, row("rs_r_id", in("r_id"), "rs_c_id", in("c_id")),
                                in("flight_id"), in("seat"));
                        t.write(SeatsSchema.RESERVATION_CUSTOMER, row("rc_r_id", in("r_id"), "rc_seat", in("seat")),
                                in("c_id"), in("flight_id"));
                        t.let("reserved", lit(1L));
                    });
                    b.output("reserved", local("reserved"));
                })
                .build();
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long flightId, long customerId, long seat, long reservationId) {
        return Inputs.of(flightId, customerId, seat, reservationId);
    }
}
