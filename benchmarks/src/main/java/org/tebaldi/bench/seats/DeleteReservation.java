package org.tebaldi.bench.seats;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * SEATS delete_reservation as a stored procedure (benchbase DeleteReservation, adapted after dissertation §4.6.2):
 * finds the customer's reservation on the flight through {@code reservation_customer}; if there is one, gives the
 * seat back to the flight ({@code f_seats_left + 1}), reads the reservation for its price, refunds the customer and
 * uncounts the reservation, and deletes the reservation and its two index rows. Otherwise it commits without writing
 * (benchbase aborts; here the client rarely asks for a reservation that does not exist, see {@link SeatsClient}).
 * The customer is given by id (no lookup by id string or frequent-flyer number).
 *
 * <p>Inputs, in order (Long): {@code flight_id}, {@code c_id}. Output: {@code deleted} (1 or 0). An index entry
 * without its reservation, or a missing flight or customer, is a user abort (never in a serializable run).
 */
public final class DeleteReservation {
    /** Transaction type name. */
    public static final String NAME = "delete_reservation";

    private DeleteReservation() {
    }

    /** The procedure over {@code schema}'s catalog. */
    public static Procedure procedure(SeatsSchema schema) {
        return Procedure.define(NAME, schema.catalog())
                .params("flight_id", "c_id")
                .body(b -> {
                    b.read(SeatsSchema.RESERVATION_CUSTOMER, "rc", in("c_id"), in("flight_id"));
                    b.let("deleted", lit(0L));
                    b.ifThen(not(isNull(local("rc"))), t -> {
                        t.update(SeatsSchema.FLIGHT, "f",
                                List.of(set("f_seats_left", add(col("f_seats_left"), lit(1L)))), in("flight_id"));
                        t.abortIf(isNull(local("f")), "delete_reservation: no such flight");
                        t.read(SeatsSchema.RESERVATION, "r", in("flight_id"), field("rc", "rc_r_id"));
                        t.abortIf(isNull(local("r")), "delete_reservation: reservation_customer names a missing"
                                + " reservation");
                        t.update(SeatsSchema.CUSTOMER, "c", List.of(
                                        set("c_balance", add(col("c_balance"), field("r", "r_price"))),
                                        set("c_reservations", sub(col("c_reservations"), lit(1L)))),
                                in("c_id"));
                        t.abortIf(isNull(local("c")), "delete_reservation: no such customer");
                        t.delete(SeatsSchema.RESERVATION, in("flight_id"), field("rc", "rc_r_id"));
                        t.delete(SeatsSchema.RESERVATION_SEAT, in("flight_id"), field("rc", "rc_seat"));
                        t.delete(SeatsSchema.RESERVATION_CUSTOMER, in("c_id"), in("flight_id"));
                        t.let("deleted", lit(1L));
                    });
                    b.output("deleted", local("deleted"));
                })
                .build();
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long flightId, long customerId) {
        return Inputs.of(flightId, customerId);
    }
}
