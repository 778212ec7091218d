package org.tebaldi.bench.seats;

import java.math.BigInteger;

/**
 * The initial state of a SEATS database as pure functions of its {@link SeatsConfig}, shared by the loader (which
 * writes it) and the clients (which pick inputs that likely succeed: a free seat for new_reservation, an existing
 * reservation for delete_ and update_reservation, like benchbase's client-side caches). Deterministic per seed;
 * thread-safe (immutable).
 *
 * <p>Seat {@code s} of flight {@code f} is taken at load iff a hash of (seed, f, s) falls below the load factor; its
 * holder is {@code customerOf(f, s) = (s * m_f + o_f) mod customers} with {@code m_f} coprime to the number of
 * customers, so the seats of one flight have distinct holders (a customer holds at most one seat per flight). The
 * loaded reservation's id is {@code f * seatsPerFlight + s}, below {@link #FIRST_RUNTIME_RESERVATION_ID}.
 */
public final class SeatsLayout {
    /** Reservation ids made during a run are at least this (loaded ones are below). */
    public static final long FIRST_RUNTIME_RESERVATION_ID = 1L << 40;
    /** Every customer's balance before any reservation, in cents. */
    public static final long INITIAL_BALANCE = 1_000_000_00L;
    /** Departure time of flight 0 (epoch ms, 2026-01-01T00:00Z); flight {@code f} departs {@code f} hours later. */
    public static final long FIRST_DEPARTURE = 1_767_225_600_000L;

    private final SeatsConfig cfg;
    private final long[] mult;
    private final long[] inv;
    private final long[] off;

    /** Precomputes each flight's customer permutation. */
    public SeatsLayout(SeatsConfig cfg) {
        this.cfg = cfg;
        int n = cfg.flights();
        mult = new long[n];
        inv = new long[n];
        off = new long[n];
        long c = cfg.customers();
        for (int f = 0; f < n; f++) {
            long m = 1 + Long.remainderUnsigned(hash(cfg.seed() ^ 0x5EA75L, f, -1), c - 1);
            while (BigInteger.valueOf(m).gcd(BigInteger.valueOf(c)).longValue() != 1) {
                m = m % (c - 1) + 1;
            }
            mult[f] = m;
            inv[f] = BigInteger.valueOf(m).modInverse(BigInteger.valueOf(c)).longValue();
            off[f] = Long.remainderUnsigned(hash(cfg.seed() ^ 0x0FFL, f, -2), c);
        }
    }

    /** The configuration. */
    public SeatsConfig config() {
        return cfg;
    }

    /** True if seat {@code s} of flight {@code f} is reserved at load. */
    public boolean booked(int f, int s) {
        return (hash(cfg.seed(), f, s) >>> 11) * 0x1.0p-53 < cfg.loadFactor();
    }

    /** The customer holding seat {@code s} of flight {@code f} at load, if {@link #booked}. */
    public long customerOf(int f, int s) {
        return (s * mult[f] + off[f]) % cfg.customers();
    }

    /** The seat of flight {@code f} whose layout customer is {@code c}, or -1 (then {@code c} holds none). */
    public int seatOf(int f, long c) {
        long s = Math.floorMod(c - off[f], (long) cfg.customers()) * inv[f] % cfg.customers();
        return s < cfg.seatsPerFlight() ? (int) s : -1;
    }

    /** True if customer {@code c} holds a seat on flight {@code f} at load. */
    public boolean holdsSeat(int f, long c) {
        int s = seatOf(f, c);
        return s >= 0 && booked(f, s);
    }

    /** Id of the loaded reservation of seat {@code s} of flight {@code f}. */
    public long loadedReservationId(int f, int s) {
        return (long) f * cfg.seatsPerFlight() + s;
    }

    /** Base ticket price of flight {@code f}, cents: 100.00 .. 594.00 dollars. */
    public long basePrice(int f) {
        return 100_00L + (f * 37L % 100) * 5_00L;
    }

    /** Airport flight {@code f} departs from. */
    public int departure(int f) {
        return f % cfg.airports();
    }

    /** Airport flight {@code f} arrives at (never its departure airport). */
    public int arrival(int f) {
        int a = cfg.airports();
        return (departure(f) + 1 + (f / a) % (a - 1)) % a;
    }

    /** Number of flights departing from airport {@code ap}: the {@code f} with {@code f mod airports == ap}. */
    public int flightsFrom(int ap) {
        return Math.max(0, (cfg.flights() - ap + cfg.airports() - 1) / cfg.airports());
    }

    /** The {@code k}-th flight departing from airport {@code ap}, {@code 0 <= k < flightsFrom(ap)}. */
    public int flightFrom(int ap, int k) {
        return ap + k * cfg.airports();
    }

    /** Home airport of customer {@code c}. */
    public int baseAirport(long c) {
        return (int) (c % cfg.airports());
    }

    /** SplitMix64-style mix of (seed, a, b). */
    static long hash(long seed, long a, long b) {
        long h = seed * 0x9E3779B97F4A7C15L + a;
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L + b;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        h = (h ^ (h >>> 31)) * 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 29);
    }
}
