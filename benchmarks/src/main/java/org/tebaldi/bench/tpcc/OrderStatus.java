package org.tebaldi.bench.tpcc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.txn.Inputs;

/**
 * The order_status transaction (TPC-C §2.6.2), interactive and read-only: reads the customer, its latest order id
 * from the {@code customer_last_order} index (dissertation §4.6: the secondary index replaces the search for the
 * largest O_ID), the order, and its lines one by one. The customer is selected by id only (no last-name scan).
 *
 * <p>Because the index entry and the order are written by one new_order transaction, a missing order or order
 * line is evidence of a non-serializable read: the body then fails with an {@link IllegalStateException}.
 */
public final class OrderStatus {
    /** The tables in the order the body accesses them (declared for runtime pipelining's analysis). */
    public static final java.util.List<String> ACCESS_ORDER = java.util.List.of(TpccSchema.CUSTOMER,
            TpccSchema.CUSTOMER_LAST_ORDER, TpccSchema.OORDER, TpccSchema.ORDER_LINE);
    /** Transaction type name. */
    public static final String NAME = "order_status";
    /** Input names (for {@link org.tebaldi.core.db.Database#interactive}). */
    public static final String[] PARAMS = {"w_id", "d_id", "c_id"};

    /**
     * What the transaction read.
     *
     * @param balance the customer's c_balance
     * @param orderId the latest order's id, 0 if the customer has no order
     * @param carrier the order's carrier (null if undelivered or no order)
     * @param lines   the order's lines, in ol_number order (empty if no order)
     */
    public record Result(double balance, long orderId, Long carrier, List<Row> lines) {
    }

    private OrderStatus() {
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long wId, long dId, long cId) {
        return Inputs.of(wId, dId, cId);
    }

    /**
     * The body: issues the reads on {@code t} and completes with the result; does not commit. Fails with
     * {@link IllegalStateException} on a missing customer or on the inconsistencies of the class doc.
     */
    public static Function<Transaction, CompletableFuture<Result>> body(long wId, long dId, long cId) {
        return body(wId, dId, cId, false);
    }

    private static Function<Transaction, CompletableFuture<Result>> body(long wId, long dId, long cId,
                                                                        boolean batched) {
        return t -> t.read(TpccSchema.CUSTOMER, wId, dId, cId).thenCompose(c -> {
            if (c == null) {
                throw new IllegalStateException("order_status: no customer (" + wId + ", " + dId + ", " + cId + ")");
            }
            double balance = c.getDouble("c_balance");
            return t.read(TpccSchema.CUSTOMER_LAST_ORDER, wId, dId, cId).thenCompose(idx -> {
                if (idx == null) {
                    return CompletableFuture.completedFuture(new Result(balance, 0, null, List.of()));
                }
                long oId = idx.getLong("clo_o_id");
                return t.read(TpccSchema.OORDER, wId, dId, oId).thenCompose(o -> {
                    if (o == null || o.getLong("o_c_id") != cId) {
                        throw new IllegalStateException("order_status: customer_last_order (" + wId + ", " + dId
                                + ", " + cId + ") = " + oId + " but that order is " + o);
                    }
                    long cnt = o.getLong("o_ol_cnt");
                    Long carrier = (Long) o.get("o_carrier_id");
                    return (batched ? batchedLines(t, wId, dId, oId, cnt)
                            : lines(t, wId, dId, oId, 1, cnt, new ArrayList<>()))
                            .thenApply(ls -> new Result(balance, oId, carrier, ls));
                });
            });
        });
    }

    /** The body with the order's lines read together (four round trips). */
    public static Function<Transaction, CompletableFuture<Result>> batchedBody(long wId, long dId, long cId) {
        return body(wId, dId, cId, true);
    }

    private static CompletableFuture<List<Row>> batchedLines(Transaction t, long w, long d, long o, long cnt) {
        List<long[]> keys = new ArrayList<>();
        for (long n = 1; n <= cnt; n++) {
            keys.add(new long[] {w, d, o, n});
        }
        return t.readAll(TpccSchema.ORDER_LINE, keys).thenApply(ls -> {
            for (int i = 0; i < ls.size(); i++) {
                if (ls.get(i) == null) {
                    throw new IllegalStateException("order_status: order (" + w + ", " + d + ", " + o
                            + ") has o_ol_cnt " + cnt + " but line " + (i + 1) + " is missing");
                }
            }
            return new ArrayList<>(ls);
        });
    }

    private static CompletableFuture<List<Row>> lines(Transaction t, long w, long d, long o, long n, long cnt,
                                                      List<Row> acc) {
        if (n > cnt) {
            return CompletableFuture.completedFuture(acc);
        }
        return t.read(TpccSchema.ORDER_LINE, w, d, o, n).thenCompose(line -> {
            if (line == null) {
                throw new IllegalStateException("order_status: order (" + w + ", " + d + ", " + o + ") has o_ol_cnt "
                        + cnt + " but line " + n + " is missing");
            }
            acc.add(line);
            return lines(t, w, d, o, n + 1, cnt, acc);
        });
    }
}
