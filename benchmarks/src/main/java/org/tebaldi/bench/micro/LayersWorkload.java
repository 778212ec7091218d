package org.tebaldi.bench.micro;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.core.txn.Inputs;

/**
 * The two-vs-three-layer microbenchmark (dissertation §4.6.4 "Hierarchical application of MCC", Fig 4.11): table
 * {@code a} of {@code hotRows} rows (10) and tables {@code b .. e} of {@code rows} rows (10,000); the read-only
 * {@code t1} read-write conflicts heavily with {@code t2} (through A) and {@code t3}, while {@code t2} and
 * {@code t3} rarely conflict with each other but do not pipeline well together ({@link LayersTxns}). Clients pick
 * t1, t2, t3 with equal probability and every key uniformly.
 *
 * <p>Consistency: no row is missing; with {@code t2: increment}, also every committed t2 increments one row of each
 * of A..E and t3 writes its B row back with the count it read, so the {@code cnt} sums of A, B, C, D and E are all
 * equal (a t2 increment lost to a concurrent t3, or a lost t2 increment, breaks it). With the dissertation's blind
 * writes (the default) the history's serializability is the check.
 */
public final class LayersWorkload extends CounterWorkload {
    private final int hotRows;
    private final int rows;
    private final boolean increments;

    /** With the dissertation's blind writes in t2. */
    public LayersWorkload(int hotRows, int rows) {
        this(hotRows, rows, false);
    }

    /**
     * @param hotRows    rows of table A (dissertation: 10), at least 1
     * @param rows       rows of each of B..E (dissertation: 10,000), at least 1
     * @param increments t2 increments its rows (read-modify-write) instead of writing them blind (§4.6.4)
     * @throws IllegalArgumentException for a size below 1
     */
    public LayersWorkload(int hotRows, int rows, boolean increments) {
        this.hotRows = hotRows;
        this.rows = rows;
        this.increments = increments;
        tables.add(LayersTxns.A, hotRows, LayersTxns.T3_COL, LayersTxns.SEEN);
        for (String t : LayersTxns.OTHERS) {
            tables.add(t, rows, LayersTxns.T3_COL, LayersTxns.SEEN);
        }
        define(List.of(LayersTxns.t1(tables.catalog()), increments ? LayersTxns.t2Increments(tables.catalog())
                : LayersTxns.t2(tables.catalog()), LayersTxns.t3(tables.catalog())));
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int t1Inputs = LayersTxns.t1Params().length;
        return () -> switch (r.nextInt(3)) {
            case 0 -> {
                Object[] v = new Object[t1Inputs];
                v[0] = (long) r.nextInt(hotRows);
                for (int i = 1; i < v.length; i++) {
                    v[i] = (long) r.nextInt(rows);
                }
                yield TxnRequest.procedure(LayersTxns.T1, Inputs.of(v));
            }
            case 1 -> TxnRequest.procedure(LayersTxns.T2, Inputs.of((long) r.nextInt(hotRows), key(r), key(r),
                    key(r), key(r)));
            default -> TxnRequest.procedure(LayersTxns.T3, Inputs.of(key(r), key(r), key(r), key(r)));
        };
    }

    private long key(SplittableRandom r) {
        return r.nextInt(rows);
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot s) {
        List<String> problems = new ArrayList<>();
        tables.checkRowCounts(s, problems);
        long t3 = CounterTables.sum(s, "b", LayersTxns.T3_COL);
        if (!increments) {
            return problems.isEmpty() ? ConsistencyResult.ok("no row missing (t2 writes blind)")
                    : ConsistencyResult.violated("rows missing", problems);
        }
        long a = CounterTables.sum(s, LayersTxns.A, CounterTables.CNT);
        for (String t : LayersTxns.OTHERS) {
            long sum = CounterTables.sum(s, t, CounterTables.CNT);
            if (sum != a) {
                problems.add("table " + t + " has cnt sum " + sum + " but table a " + a
                        + " (every t2 increments one row of each)");
            }
        }
        String summary = a + " t2 increments in each of a..e, " + t3 + " t3 updates of b";
        return problems.isEmpty() ? ConsistencyResult.ok(summary) : ConsistencyResult.violated(summary, problems);
    }
}
