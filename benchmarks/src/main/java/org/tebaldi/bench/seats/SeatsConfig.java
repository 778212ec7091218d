package org.tebaldi.bench.seats;

/**
 * Scale of a SEATS database (dissertation §4.6.2, docs/experiments.md, "How the workloads are adapted"). Immutable; {@link #dissertation()} gives the
 * experiment's scale, tests shrink it.
 *
 * @param flights        number of flights, 1..10,000 (dissertation: 50)
 * @param seatsPerFlight seats per flight, 1..100,000 (dissertation: 30,000)
 * @param customers      number of customers, at least {@code max(2, seatsPerFlight)} (each customer holds at most
 *                       one seat per flight, and the initial layout gives every seat of a flight a distinct
 *                       customer), at most 10,000,000 (benchbase scale 1: 100,000)
 * @param airports       number of airports, 2..10,000; flight {@code f} departs from airport {@code f mod airports}
 * @param loadFactor     share of seats reserved at load, 0..0.9
 * @param seatsRead      seats find_open_seats reads, 1..1,000 (docs/experiments.md: 30; capped at the flight's seats)
 * @param seed           seeds the initial layout (which seats are taken, by whom)
 */
public record SeatsConfig(int flights, int seatsPerFlight, int customers, int airports, double loadFactor,
                          int seatsRead, long seed) {
    /** Dissertation scale: flights, seats per flight, seats read by find_open_seats. */
    public static final int DISSERTATION_FLIGHTS = 50;
    public static final int DISSERTATION_SEATS = 30_000;
    public static final int DISSERTATION_SEATS_READ = 30;
    /** Defaults for the knobs the dissertation does not state: customers, airports, load factor. */
    public static final int DEFAULT_CUSTOMERS = 100_000;
    public static final int DEFAULT_AIRPORTS = 10;
    public static final double DEFAULT_LOAD_FACTOR = 0.2;

    /** @throws IllegalArgumentException for a value outside the ranges of the class doc */
    public SeatsConfig {
        check(flights >= 1 && flights <= 10_000, "flights must be 1..10,000, got " + flights);
        check(seatsPerFlight >= 1 && seatsPerFlight <= 100_000, "seatsPerFlight must be 1..100,000, got "
                + seatsPerFlight);
        check(customers >= Math.max(2, seatsPerFlight) && customers <= 10_000_000, "customers must be "
                + Math.max(2, seatsPerFlight) + "..10,000,000 (at least seatsPerFlight), got " + customers);
        check(airports >= 2 && airports <= 10_000, "airports must be 2..10,000, got " + airports);
        check(loadFactor >= 0 && loadFactor <= 0.9, "loadFactor must be 0..0.9, got " + loadFactor);
        check(seatsRead >= 1 && seatsRead <= 1_000, "seatsRead must be 1..1,000, got " + seatsRead);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** The dissertation's database: 50 flights of 30,000 seats, 100,000 customers, 10 airports, 20% booked. */
    public static SeatsConfig dissertation() {
        return new SeatsConfig(DISSERTATION_FLIGHTS, DISSERTATION_SEATS, DEFAULT_CUSTOMERS, DEFAULT_AIRPORTS,
                DEFAULT_LOAD_FACTOR, DISSERTATION_SEATS_READ, 1L);
    }

    /** Seats find_open_seats actually reads: {@code min(seatsRead, seatsPerFlight)}. */
    public int seatsReadPerFlight() {
        return Math.min(seatsRead, seatsPerFlight);
    }
}
