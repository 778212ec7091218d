package org.tebaldi.bench.tpcc;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.txn.Inputs;

/**
 * The stock_level transaction (TPC-C §2.8.2), interactive and read-only, in the shape of dissertation Fig 5.3:
 * reads the district's {@code d_next_o_id}, then the last 20 orders (ids {@code max(1, next - 20)} ..
 * {@code next - 1}) for their {@code o_ol_cnt}, then their lines one by one, and the home warehouse's stock of
 * each line's item (each distinct item once). It counts the distinct items whose {@code s_quantity} is below the
 * threshold. {@link #body} issues the operations one after the other, as in the figure, so the transaction is long
 * (about 400 reads, one round trip each); {@link #batchedBody} reads the same rows in four batches
 * ({@link Transaction#readAll}: the district, the orders, their lines, the distinct items' stock). All orders are
 * read before any line, so the accesses follow the table order {@link #ACCESS_ORDER} that runtime pipelining's
 * analysis is told (dissertation §3.1, Fig 3.1).
 *
 * <p>Orders below {@code d_next_o_id} and their lines always exist in a serializable execution; a missing one
 * makes the body fail with {@link IllegalStateException}.
 */
public final class StockLevel {
    /** Transaction type name. */
    public static final String NAME = "stock_level";
    /** Input names (for {@link org.tebaldi.core.db.Database#interactive}). */
    public static final String[] PARAMS = {"w_id", "d_id", "threshold"};
    /** The tables in the order the body accesses them (declared for runtime pipelining's analysis). */
    public static final java.util.List<String> ACCESS_ORDER = java.util.List.of(TpccSchema.DISTRICT,
            TpccSchema.OORDER, TpccSchema.ORDER_LINE, TpccSchema.STOCK);
    /** Number of recent orders examined (TPC-C §2.8.2.2). */
    public static final int ORDERS = 20;

    private StockLevel() {
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long wId, long dId, long threshold) {
        return Inputs.of(wId, dId, threshold);
    }

    /**
     * The body: issues the reads on {@code t} and completes with the number of distinct low-stock items; does not
     * commit.
     */
    public static Function<Transaction, CompletableFuture<Long>> body(long wId, long dId, long threshold) {
        return t -> t.read(TpccSchema.DISTRICT, wId, dId).thenCompose(d -> {
            if (d == null) {
                throw new IllegalStateException("stock_level: no district (" + wId + ", " + dId + ")");
            }
            long next = d.getLong("d_next_o_id");
            Scan s = new Scan(t, wId, dId, threshold, next);
            long first = Math.max(1, next - ORDERS);
            return s.order(first).thenCompose(x -> s.lines(first)).thenApply(x -> (long) s.low.size());
        });
    }

    /** The body with the reads of each table issued together (four round trips). */
    public static Function<Transaction, CompletableFuture<Long>> batchedBody(long wId, long dId, long threshold) {
        return t -> t.read(TpccSchema.DISTRICT, wId, dId).thenCompose(d -> {
            if (d == null) {
                throw new IllegalStateException("stock_level: no district (" + wId + ", " + dId + ")");
            }
            long next = d.getLong("d_next_o_id");
            long first = Math.max(1, next - ORDERS);
            java.util.List<long[]> orders = new java.util.ArrayList<>();
            for (long o = first; o < next; o++) {
                orders.add(new long[] {wId, dId, o});
            }
            return t.readAll(TpccSchema.OORDER, orders).thenCompose(os -> {
                java.util.List<long[]> lines = new java.util.ArrayList<>();
                for (int i = 0; i < os.size(); i++) {
                    long o = first + i;
                    if (os.get(i) == null) {
                        throw new IllegalStateException("stock_level: d_next_o_id of (" + wId + ", " + dId + ") is "
                                + next + " but order " + o + " is missing");
                    }
                    for (long n = 1; n <= os.get(i).getLong("o_ol_cnt"); n++) {
                        lines.add(new long[] {wId, dId, o, n});
                    }
                }
                return t.readAll(TpccSchema.ORDER_LINE, lines);
            }).thenCompose(ls -> {
                java.util.LinkedHashSet<Long> items = new java.util.LinkedHashSet<>();
                for (int i = 0; i < ls.size(); i++) {
                    if (ls.get(i) == null) {
                        throw new IllegalStateException("stock_level: an order line of district (" + wId + ", "
                                + dId + ") is missing");
                    }
                    items.add(ls.get(i).getLong("ol_i_id"));
                }
                java.util.List<long[]> stock = new java.util.ArrayList<>();
                for (long item : items) {
                    stock.add(new long[] {wId, item});
                }
                return t.readAll(TpccSchema.STOCK, stock);
            }).thenApply(ss -> {
                long low = 0;
                for (org.tebaldi.core.model.Row st : ss) {
                    if (st == null) {
                        throw new IllegalStateException("stock_level: missing stock in warehouse " + wId);
                    }
                    if (st.getLong("s_quantity") < threshold) {
                        low++;
                    }
                }
                return low;
            });
        });
    }

    /** State of one run: items seen, items below the threshold. */
    private static final class Scan {
        final Transaction t;
        final long w;
        final long d;
        final long threshold;
        final long next;
        final Set<Long> seen = new HashSet<>();
        final Set<Long> low = new HashSet<>();
        final java.util.Map<Long, Long> lineCounts = new java.util.HashMap<>();

        Scan(Transaction t, long w, long d, long threshold, long next) {
            this.t = t;
            this.w = w;
            this.d = d;
            this.threshold = threshold;
            this.next = next;
        }

        CompletableFuture<Void> order(long o) {
            if (o >= next) {
                return CompletableFuture.completedFuture(null);
            }
            return t.read(TpccSchema.OORDER, w, d, o).thenCompose(row -> {
                if (row == null) {
                    throw new IllegalStateException("stock_level: d_next_o_id of (" + w + ", " + d + ") is " + next
                            + " but order " + o + " is missing");
                }
                lineCounts.put(o, row.getLong("o_ol_cnt"));
                return order(o + 1);
            });
        }

        CompletableFuture<Void> lines(long o) {
            if (o >= next) {
                return CompletableFuture.completedFuture(null);
            }
            return line(o, 1, lineCounts.get(o)).thenCompose(x -> lines(o + 1));
        }

        CompletableFuture<Void> line(long o, long n, long cnt) {
            if (n > cnt) {
                return CompletableFuture.completedFuture(null);
            }
            return t.read(TpccSchema.ORDER_LINE, w, d, o, n).thenCompose(line -> {
                if (line == null) {
                    throw new IllegalStateException("stock_level: order (" + w + ", " + d + ", " + o
                            + ") has o_ol_cnt " + cnt + " but line " + n + " is missing");
                }
                long item = line.getLong("ol_i_id");
                if (!seen.add(item)) {
                    return line(o, n + 1, cnt);
                }
                return t.read(TpccSchema.STOCK, w, item).thenCompose(st -> {
                    if (st == null) {
                        throw new IllegalStateException("stock_level: no stock (" + w + ", " + item + ")");
                    }
                    if (st.getLong("s_quantity") < threshold) {
                        low.add(item);
                    }
                    return line(o, n + 1, cnt);
                });
            });
        }
    }
}
