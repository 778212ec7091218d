package org.tebaldi.bench.seats;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * SEATS update_reservation as a stored procedure (benchbase UpdateReservation, adapted after dissertation §4.6.2):
 * if the new seat is free and the customer holds a seat on the flight, moves the reservation to the new seat —
 * updates the reservation's seat and attribute, moves its {@code reservation_seat} entry and updates its
 * {@code reservation_customer} entry. Otherwise it commits without writing. It never touches the {@code flight}
 * table, so two update_reservations conflict only on the same seat (§5.6.2). benchbase's four attribute columns are
 * one here.
 *
 * <p>Inputs, in order (Long): {@code flight_id}, {@code c_id}, {@code seat} (the new seat), {@code attr}. Output:
 * {@code moved} (1 or 0). An index entry without its reservation is a user abort (never in a serializable run).
 */
public final class UpdateReservation {
    /** Transaction type name. */
    public static final String NAME = "update_reservation";

    private UpdateReservation() {
    }

    /** The procedure over {@code schema}'s catalog. */
    public static Procedure procedure(SeatsSchema schema) {
        return Procedure.define(NAME, schema.catalog())
                .params("flight_id", "c_id", "seat", "attr")
                .body(b -> {
                    b.read(SeatsSchema.RESERVATION_SEAT, "ns", in("flight_id"), in("seat"));
                    b.read(SeatsSchema.RESERVATION_CUSTOMER, "rc", in("c_id"), in("flight_id"));
                    b.let("moved", lit(0L));
                    b.ifThen(and(isNull(local("ns")), not(isNull(local("rc")))), t -> {
                        t.update(SeatsSchema.RESERVATION, "r",
                                List.of(set("r_seat", in("seat")), set("r_iattr00", in("attr"))),
                                in("flight_id"), field("rc", "rc_r_id"));
                        t.abortIf(isNull(local("r")), "update_reservation: reservation_customer names a missing"
                                + " reservation");
                        t.delete(SeatsSchema.RESERVATION_SEAT, in("flight_id"), field("rc", "rc_seat"));
                        t.write(SeatsSchema.RESERVATION_SEAT, row("rs_r_id", field("rc", "rc_r_id"),
                                "rs_c_id", in("c_id")), in("flight_id"), in("seat"));
                        t.update(SeatsSchema.RESERVATION_CUSTOMER, null, List.of(set("rc_seat", in("seat"))),
                                in("c_id"), in("flight_id"));
                        t.let("moved", lit(1L));
                    });
                    b.output("moved", local("moved"));
                })
                .build();
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long flightId, long customerId, long seat, long attr) {
        return Inputs.of(flightId, customerId, seat, attr);
    }
}
