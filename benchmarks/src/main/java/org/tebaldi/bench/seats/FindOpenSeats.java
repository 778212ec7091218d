package org.tebaldi.bench.seats;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Inputs;

/**
 * SEATS find_open_seats, interactive and read-only (benchbase FindOpenSeats, adapted as docs/experiments.md says): reads
 * the flight for its price and seat counts, then {@code count} consecutive seats starting at {@code first_seat}
 * (wrapping around the flight) one after the other through the {@code reservation_seat} index, instead of scanning
 * the flight's reservations; an absent entry is an open seat. Reads are issued one at a time, as a query walking
 * the index would, so the transaction is long (1 + 30 reads at dissertation scale).
 *
 * <p>A missing flight makes the body fail with {@link IllegalStateException} (never with valid inputs).
 */
public final class FindOpenSeats {
    /** Transaction type name. */
    public static final String NAME = "find_open_seats";
    /** Input names. */
    public static final String[] PARAMS = {"flight_id", "first_seat", "count"};
    /** The tables in the order the body accesses them. */
    public static final List<String> ACCESS_ORDER = List.of(SeatsSchema.FLIGHT, SeatsSchema.RESERVATION_SEAT);

    /**
     * What the transaction saw.
     *
     * @param price     the current seat price, cents ({@code base + base * taken / total})
     * @param seatsLeft the flight's {@code f_seats_left}
     * @param open      the open seats among those read, in reading order
     */
    public record Result(long price, long seatsLeft, List<Long> open) {
    }

    private FindOpenSeats() {
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long flightId, long firstSeat, long count) {
        return Inputs.of(flightId, firstSeat, count);
    }

    /** The body: reads the flight and {@code count} seats from {@code firstSeat}; does not commit. */
    public static Function<Transaction, CompletableFuture<Result>> body(long flightId, long firstSeat, long count) {
        return t -> t.read(SeatsSchema.FLIGHT, flightId).thenCompose(f -> {
            if (f == null) {
                throw new IllegalStateException("find_open_seats: no flight " + flightId);
            }
            long total = f.getLong("f_seats_total");
            long left = f.getLong("f_seats_left");
            long base = f.getLong("f_base_price");
            long price = base + base * (total - left) / total;
            List<Long> open = new ArrayList<>();
            return seats(t, flightId, total, firstSeat, Math.min(count, total), open)
                    .thenApply(x -> new Result(price, left, open));
        });
    }

    private static CompletableFuture<Void> seats(Transaction t, long f, long total, long seat, long left,
                                                 List<Long> open) {
        if (left == 0) {
            return CompletableFuture.completedFuture(null);
        }
        long s = seat % total;
        return t.read(SeatsSchema.RESERVATION_SEAT, f, s).thenCompose((Row r) -> {
            if (r == null) {
                open.add(s);
            }
            return seats(t, f, total, s + 1, left - 1, open);
        });
    }
}
