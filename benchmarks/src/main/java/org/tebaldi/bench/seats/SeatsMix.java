package org.tebaldi.bench.seats;

import java.util.List;

/**
 * The SEATS transaction mix of dissertation §4.6.2 / docs/experiments.md, in percent: delete_reservation 10, find_flights
 * 10, find_open_seats 35, new_reservation 20, update_customer 10, update_reservation 15.
 */
public final class SeatsMix {
    /** The types, in the order of {@link #PERCENT}. */
    public static final List<String> TYPES = List.of(DeleteReservation.NAME, FindFlights.NAME, FindOpenSeats.NAME,
            NewReservation.NAME, UpdateCustomer.NAME, UpdateReservation.NAME);
    /** Share of each type of {@link #TYPES}, percent (sums to 100). */
    public static final List<Integer> PERCENT = List.of(10, 10, 35, 20, 10, 15);

    private SeatsMix() {
    }

    /**
     * The type a uniform draw selects.
     *
     * @param u uniform in [0, 1)
     * @throws IllegalArgumentException if {@code u} is outside [0, 1)
     */
    public static String pick(double u) {
        if (!(u >= 0 && u < 1)) {
            throw new IllegalArgumentException("draw must be in [0, 1), got " + u);
        }
        double x = u * 100;
        int acc = 0;
        for (int i = 0; i < TYPES.size(); i++) {
            acc += PERCENT.get(i);
            if (x < acc) {
                return TYPES.get(i);
            }
        }
        return TYPES.get(TYPES.size() - 1);
    }
}
