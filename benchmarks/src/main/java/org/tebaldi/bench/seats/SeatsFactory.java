package org.tebaldi.bench.seats;

import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadFactory;
import org.tebaldi.bench.workload.WorkloadOptions;

/**
 * Creates the SEATS workload from {@code workload: {name: seats, flights: 50, seatsPerFlight: 30000}}. Options
 * (defaults: the dissertation's scale, {@link SeatsConfig#dissertation()}): {@code flights} (50),
 * {@code seatsPerFlight} (30,000), {@code customers} (100,000; at least seatsPerFlight), {@code airports} (10),
 * {@code loadFactor} (0.2, share of seats booked at load), {@code seatsRead} (30, seats find_open_seats reads) and
 * {@code seed} (1, the loaded layout).
 */
public final class SeatsFactory implements WorkloadFactory {
    @Override
    public String name() {
        return "seats";
    }

    @Override
    public String description() {
        return "SEATS airline reservations adapted to a key-value store (options: flights, seatsPerFlight, customers,"
                + " airports, loadFactor, seatsRead, seed)";
    }

    @Override
    public Workload create(WorkloadOptions o) {
        SeatsConfig d = SeatsConfig.dissertation();
        int flights = o.getInt("flights", d.flights(), 1, 10_000);
        int seats = o.getInt("seatsPerFlight", d.seatsPerFlight(), 1, 100_000);
        int customers = o.getInt("customers", d.customers(), 2, 10_000_000);
        if (customers < seats) {
            throw o.error("customers", "must be at least seatsPerFlight (" + seats + "): every seat of a flight has"
                    + " a distinct customer at load, found " + customers, "write e.g. customers: " + seats);
        }
        int airports = o.getInt("airports", d.airports(), 2, 10_000);
        double load = o.getDouble("loadFactor", d.loadFactor(), 0, 0.9);
        int read = o.getInt("seatsRead", d.seatsRead(), 1, 1_000);
        long seed = o.getLong("seed", d.seed(), Long.MIN_VALUE, Long.MAX_VALUE);
        return new SeatsWorkload(new SeatsConfig(flights, seats, customers, airports, load, read, seed));
    }
}
