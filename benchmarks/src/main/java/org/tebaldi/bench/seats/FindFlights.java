package org.tebaldi.bench.seats;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.txn.Inputs;

/**
 * SEATS find_flights, interactive and read-only (benchbase FindFlights, adapted after dissertation §4.6.2): reads the
 * departure airport for its number of departing flights, the airport's {@code airport_flights} entries, then each
 * of those flights, and keeps the flights to the arrival airport that have seats left. The index table replaces
 * benchbase's range scan of flights by departure airport and time; there is no nearby-airport search (no distance
 * table). Reads are issued one at a time, in the declared table order {@link #ACCESS_ORDER}.
 *
 * <p>A missing airport or index entry, or an index naming a missing flight, makes the body fail with
 * {@link IllegalStateException} (never with valid inputs: these rows are only loaded).
 */
public final class FindFlights {
    /** Transaction type name. */
    public static final String NAME = "find_flights";
    /** Input names. */
    public static final String[] PARAMS = {"depart_ap_id", "arrive_ap_id"};
    /** The tables in the order the body accesses them. */
    public static final List<String> ACCESS_ORDER = List.of(SeatsSchema.AIRPORT, SeatsSchema.AIRPORT_FLIGHTS,
            SeatsSchema.FLIGHT);

    private FindFlights() {
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long departAirport, long arriveAirport) {
        return Inputs.of(departAirport, arriveAirport);
    }

    /** The body: completes with the ids of the matching flights that have seats left; does not commit. */
    public static Function<Transaction, CompletableFuture<List<Long>>> body(long depart, long arrive) {
        return t -> t.read(SeatsSchema.AIRPORT, depart).thenCompose(a -> {
            if (a == null) {
                throw new IllegalStateException("find_flights: no airport " + depart);
            }
            long n = a.getLong("ap_flights");
            List<Long> flights = new ArrayList<>();
            List<Long> found = new ArrayList<>();
            return entries(t, depart, 0, n, flights)
                    .thenCompose(x -> flights(t, flights, 0, arrive, found))
                    .thenApply(x -> found);
        });
    }

    private static CompletableFuture<Void> entries(Transaction t, long ap, long k, long n, List<Long> out) {
        if (k == n) {
            return CompletableFuture.completedFuture(null);
        }
        return t.read(SeatsSchema.AIRPORT_FLIGHTS, ap, k).thenCompose(e -> {
            if (e == null) {
                throw new IllegalStateException("find_flights: airport " + ap + " has " + n + " flights but entry "
                        + k + " is missing");
            }
            out.add(e.getLong("af_f_id"));
            return entries(t, ap, k + 1, n, out);
        });
    }

    private static CompletableFuture<Void> flights(Transaction t, List<Long> ids, int i, long arrive,
                                                   List<Long> found) {
        if (i == ids.size()) {
            return CompletableFuture.completedFuture(null);
        }
        long id = ids.get(i);
        return t.read(SeatsSchema.FLIGHT, id).thenCompose(f -> {
            if (f == null) {
                throw new IllegalStateException("find_flights: airport_flights names missing flight " + id);
            }
            if (f.getLong("f_arrive_ap_id") == arrive && f.getLong("f_seats_left") > 0) {
                found.add(id);
            }
            return flights(t, ids, i + 1, arrive, found);
        });
    }
}
