package org.tebaldi.bench.seats;

import java.util.function.BiConsumer;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * Writes the initial SEATS database described by a {@link SeatsLayout}: airports and their departure lists,
 * flights (seats left = seats minus those taken at load), one reservation per taken seat with its two index rows,
 * and customers whose reservation count and balance ({@link SeatsLayout#INITIAL_BALANCE} minus the prices of the
 * seats they hold, each at its flight's base price) match those reservations. Deterministic per seed.
 */
public final class SeatsLoader {
    private final SeatsSchema schema;
    private final SeatsLayout layout;

    /** Loads {@code layout}'s initial state into {@code schema}'s tables. */
    public SeatsLoader(SeatsSchema schema, SeatsLayout layout) {
        this.schema = schema;
        this.layout = layout;
    }

    /**
     * Rows per table (reservations counted from the layout), in load order, for
     * {@link org.tebaldi.bench.workload.DataLoader#expect}.
     */
    public java.util.Map<String, Long> expectedRows() {
        SeatsConfig c = layout.config();
        long taken = 0;
        for (int f = 0; f < c.flights(); f++) {
            taken += takenSeats(f);
        }
        java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put(SeatsSchema.AIRPORT, (long) c.airports());
        m.put(SeatsSchema.AIRPORT_FLIGHTS, (long) c.flights());
        m.put(SeatsSchema.FLIGHT, (long) c.flights());
        m.put(SeatsSchema.RESERVATION, taken);
        m.put(SeatsSchema.RESERVATION_SEAT, taken);
        m.put(SeatsSchema.RESERVATION_CUSTOMER, taken);
        m.put(SeatsSchema.CUSTOMER, (long) c.customers());
        return m;
    }

    /**
     * Loads every row.
     *
     * @param sink     receives each row at its key
     * @param progress told after each flight and every 10,000 customers
     */
    public void load(BiConsumer<Key, Row> sink, Progress progress) {
        SeatsConfig c = layout.config();
        for (int ap = 0; ap < c.airports(); ap++) {
            int n = layout.flightsFrom(ap);
            sink.accept(Key.of(schema.airport(), ap), schema.airport().row("AP" + ap, "Airport " + ap, (long) n));
            for (int k = 0; k < n; k++) {
                sink.accept(Key.of(schema.airportFlights(), ap, k),
                        schema.airportFlights().row((long) layout.flightFrom(ap, k)));
            }
        }
        int[] count = new int[c.customers()];
        long[] spent = new long[c.customers()];
        for (int f = 0; f < c.flights(); f++) {
            long price = layout.basePrice(f);
            sink.accept(Key.of(schema.flight(), f), schema.flight().row((long) layout.departure(f),
                    (long) layout.arrival(f), SeatsLayout.FIRST_DEPARTURE + f * 3_600_000L, price,
                    (long) c.seatsPerFlight(), (long) (c.seatsPerFlight() - takenSeats(f))));
            for (int s = 0; s < c.seatsPerFlight(); s++) {
                if (!layout.booked(f, s)) {
                    continue;
                }
                long cust = layout.customerOf(f, s);
                long r = layout.loadedReservationId(f, s);
                sink.accept(Key.of(schema.reservation(), f, r), schema.reservation().row(cust, (long) s, price, 0L));
                sink.accept(Key.of(schema.reservationSeat(), f, s), schema.reservationSeat().row(r, cust));
                sink.accept(Key.of(schema.reservationCustomer(), cust, f), schema.reservationCustomer().row(r, (long) s));
                count[(int) cust]++;
                spent[(int) cust] += price;
            }
            progress.report("flights", f + 1, c.flights());
        }
        for (int cust = 0; cust < c.customers(); cust++) {
            sink.accept(Key.of(schema.customer(), cust), schema.customer().row("C" + cust,
                    (long) layout.baseAirport(cust), SeatsLayout.INITIAL_BALANCE - spent[cust], 0L, 0L,
                    (long) count[cust]));
            if ((cust + 1) % 10_000 == 0 || cust + 1 == c.customers()) {
                progress.report("customers", cust + 1, c.customers());
            }
        }
    }

    private int takenSeats(int f) {
        int n = 0;
        for (int s = 0; s < layout.config().seatsPerFlight(); s++) {
            if (layout.booked(f, s)) {
                n++;
            }
        }
        return n;
    }
}
