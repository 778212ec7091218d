package org.tebaldi.bench.seats;

import java.util.SplittableRandom;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.TxnRequest;

/**
 * The input generator of one SEATS client: the {@link SeatsMix}, flights and customers uniform. Inputs are chosen
 * to likely succeed from the load's {@link SeatsLayout}, as benchbase's client-side caches do: new_reservation asks
 * for a seat free at load by a customer holding no seat on the flight at load; delete_ and update_reservation name a
 * customer holding a seat at load (and update_reservation a seat free at load). Seats taken, freed or moved during
 * the run make some of them find nothing to do (they then commit without writing), a few percent of them over a
 * dissertation-length run. New reservation ids are {@code FIRST_RUNTIME_RESERVATION_ID + (client << 24) +
 * counter}, unique per run for up to 2^16 clients and 2^24 reservations each. Not thread-safe (one logical client).
 */
public final class SeatsClient implements ClientSource {
    /** Draws before a generator gives up looking for a seat or customer with a given load state. */
    static final int TRIES = 64;

    private final SeatsLayout layout;
    private final SeatsConfig cfg;
    private final SplittableRandom random;
    private final long idBase;
    private long nextId;

    /**
     * @param index the client's index (0-based, unique in the run, below 65,536)
     * @param seed  the client's random seed
     * @throws IllegalArgumentException for an index outside 0..65,535
     */
    public SeatsClient(SeatsLayout layout, int index, long seed) {
        if (index < 0 || index >= 1 << 16) {
            throw new IllegalArgumentException("SEATS client index must be 0..65535, got " + index);
        }
        this.layout = layout;
        this.cfg = layout.config();
        this.random = new SplittableRandom(seed);
        this.idBase = SeatsLayout.FIRST_RUNTIME_RESERVATION_ID + ((long) index << 24);
    }

    @Override
    public TxnRequest next() {
        return switch (SeatsMix.pick(random.nextDouble())) {
            case DeleteReservation.NAME -> deleteReservation();
            case FindFlights.NAME -> findFlights();
            case FindOpenSeats.NAME -> findOpenSeats();
            case NewReservation.NAME -> newReservation();
            case UpdateCustomer.NAME -> updateCustomer();
            default -> updateReservation();
        };
    }

    /** A new_reservation of a seat free at load, by a customer without a seat on the flight at load. */
    public TxnRequest newReservation() {
        int f = flight();
        int s = seat(f, false);
        long c = random.nextInt(cfg.customers());
        for (int i = 0; i < TRIES && layout.holdsSeat(f, c); i++) {
            c = random.nextInt(cfg.customers());
        }
        long r = idBase + (nextId++ & 0xFF_FFFFL);
        return TxnRequest.procedure(NewReservation.NAME, NewReservation.inputs(f, c, s, r));
    }

    /** A delete_reservation of a reservation held at load. */
    public TxnRequest deleteReservation() {
        int f = flight();
        return TxnRequest.procedure(DeleteReservation.NAME,
                DeleteReservation.inputs(f, layout.customerOf(f, seat(f, true))));
    }

    /** An update_reservation moving a reservation held at load to a seat free at load. */
    public TxnRequest updateReservation() {
        int f = flight();
        long c = layout.customerOf(f, seat(f, true));
        return TxnRequest.procedure(UpdateReservation.NAME,
                UpdateReservation.inputs(f, c, seat(f, false), random.nextInt(1 << 20)));
    }

    /** An update_customer of a uniform customer. */
    public TxnRequest updateCustomer() {
        long c = random.nextInt(cfg.customers());
        long a0 = random.nextInt(1 << 20);
        long a1 = random.nextInt(1 << 20);
        return TxnRequest.interactive(UpdateCustomer.NAME, UpdateCustomer.inputs(c, a0, a1),
                UpdateCustomer.body(c, a0, a1)::apply);
    }

    /** A find_flights between two distinct uniform airports. */
    public TxnRequest findFlights() {
        int a = random.nextInt(cfg.airports());
        int b = (a + 1 + random.nextInt(cfg.airports() - 1)) % cfg.airports();
        return TxnRequest.interactive(FindFlights.NAME, FindFlights.inputs(a, b), FindFlights.body(a, b)::apply);
    }

    /** A find_open_seats of {@code seatsRead} seats from a uniform seat of a uniform flight. */
    public TxnRequest findOpenSeats() {
        int f = flight();
        long first = random.nextInt(cfg.seatsPerFlight());
        long n = cfg.seatsReadPerFlight();
        return TxnRequest.interactive(FindOpenSeats.NAME, FindOpenSeats.inputs(f, first, n),
                FindOpenSeats.body(f, first, n)::apply);
    }

    private int flight() {
        return random.nextInt(cfg.flights());
    }

    /** A seat of flight {@code f} taken ({@code taken}) or free at load; any seat after {@link #TRIES} misses. */
    private int seat(int f, boolean taken) {
        int s = random.nextInt(cfg.seatsPerFlight());
        for (int i = 0; i < TRIES && layout.booked(f, s) != taken; i++) {
            s = random.nextInt(cfg.seatsPerFlight());
        }
        return s;
    }
}
