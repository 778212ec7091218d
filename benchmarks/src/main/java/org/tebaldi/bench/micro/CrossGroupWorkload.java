package org.tebaldi.bench.micro;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.TxnRequest;

/**
 * The cross-group CC microbenchmark (dissertation §4.6.4 "Support for different cross-group protocols", Fig 4.10):
 * two groups {@code a} and {@code b}, each a transaction of seven operations — the first on a {@code shared} table
 * of {@code sharedRows} rows (cross-group conflicts at rate 1/n), the second on a group-local table of
 * {@code localRows} rows (in-group conflicts only), the other five on the group's own tables of {@code otherRows}
 * rows each (rare conflicts). With {@code conflict: ww} both groups run {@code update_a} / {@code update_b}
 * (seven increments; workloads ww-1, ww-5, ww-10 are sharedRows 100, 20, 10); with {@code conflict: rw} group b
 * runs the read-only {@code read_b} over its tables instead (rw-1, rw-5, rw-10). Clients pick a group with equal
 * probability and every key uniformly ({@link CrossGroupTxns} has the procedures).
 *
 * <p>Consistency (every update transaction increments one row of each of its seven tables): per update group, the
 * {@code cnt} sums of its local table and of each of its other tables are equal; the shared table's sum equals the
 * sum over update groups of their local sums; tables of a read-only group stay all zero; no row is missing.
 */
public final class CrossGroupWorkload extends CounterWorkload {
    /** The two groups. */
    static final List<String> GROUPS = List.of("a", "b");

    /**
     * @param readWrite  true for rw-n (group b read-only), false for ww-n
     * @param sharedRows rows of the shared table (n; 1/n is the cross-group conflict rate), at least 1
     * @param localRows  rows of each group-local table (dissertation: 10), at least 1
     * @param otherRows  rows of each of a group's five other tables (dissertation: 10,000), at least 1
     * @param increments updates increment their rows (read-modify-write) instead of the dissertation's blind writes
     */
    public record Config(boolean readWrite, int sharedRows, int localRows, int otherRows, boolean increments) {
        /** @throws IllegalArgumentException for a size below 1 */
        public Config {
            if (sharedRows < 1 || localRows < 1 || otherRows < 1) {
                throw new IllegalArgumentException("table sizes must be at least 1: shared " + sharedRows
                        + ", local " + localRows + ", other " + otherRows);
            }
        }

        /** With the dissertation's blind writes. */
        public Config(boolean readWrite, int sharedRows, int localRows, int otherRows) {
            this(readWrite, sharedRows, localRows, otherRows, false);
        }
    }

    private final Config cfg;

    /** Builds the tables and the two groups' transaction types. */
    public CrossGroupWorkload(Config cfg) {
        this.cfg = cfg;
        tables.add(CrossGroupTxns.SHARED, cfg.sharedRows());
        for (String g : GROUPS) {
            tables.add(CrossGroupTxns.localTable(g), cfg.localRows());
            for (int i = 1; i <= CrossGroupTxns.OTHERS; i++) {
                tables.add(CrossGroupTxns.other(g, i), cfg.otherRows());
            }
        }
        define(GROUPS.stream().map(g -> updates(g) ? (cfg.increments()
                ? CrossGroupTxns.updateIncrements(tables.catalog(), g) : CrossGroupTxns.update(tables.catalog(), g))
                : CrossGroupTxns.read(tables.catalog(), g)).toList());
    }

    /** True if group {@code g} runs updates (both in ww-n; only a in rw-n). */
    boolean updates(String g) {
        return !(cfg.readWrite() && g.equals("b"));
    }

    /** The type group {@code g} runs. */
    String typeOf(String g) {
        return updates(g) ? CrossGroupTxns.updateName(g) : CrossGroupTxns.readName(g);
    }

    /** The configuration. */
    public Config config() {
        return cfg;
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return () -> {
            String g = GROUPS.get(r.nextInt(GROUPS.size()));
            long[] others = new long[CrossGroupTxns.OTHERS];
            for (int i = 0; i < others.length; i++) {
                others[i] = r.nextInt(cfg.otherRows());
            }
            return TxnRequest.procedure(typeOf(g), CrossGroupTxns.inputs(r.nextInt(cfg.sharedRows()),
                    r.nextInt(cfg.localRows()), others));
        };
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot s) {
        List<String> problems = new ArrayList<>();
        tables.checkRowCounts(s, problems);
        if (!cfg.increments()) {
            return readOnlyUntouched(s, problems);
        }
        long localTotal = 0;
        for (String g : GROUPS) {
            long local = CounterTables.sum(s, CrossGroupTxns.localTable(g), CounterTables.CNT);
            long expected = updates(g) ? local : 0;
            if (!updates(g) && local != 0) {
                problems.add("read-only group " + g + ": " + CrossGroupTxns.localTable(g) + " has cnt sum " + local
                        + ", expected 0");
            }
            for (int i = 1; i <= CrossGroupTxns.OTHERS; i++) {
                String t = CrossGroupTxns.other(g, i);
                long sum = CounterTables.sum(s, t, CounterTables.CNT);
                if (sum != expected) {
                    problems.add("group " + g + ": " + t + " has cnt sum " + sum + ", " + CrossGroupTxns.localTable(g)
                            + " " + local + (updates(g) ? "" : " (read-only group: expected 0)"));
                }
            }
            localTotal += expected;
        }
        long shared = CounterTables.sum(s, CrossGroupTxns.SHARED, CounterTables.CNT);
        if (shared != localTotal) {
            problems.add("shared has cnt sum " + shared + " but the update groups' local tables " + localTotal);
        }
        String summary = shared + " increments of the shared table, equal per-group table sums";
        return problems.isEmpty() ? ConsistencyResult.ok(summary)
                : ConsistencyResult.violated(shared + " increments of the shared table", problems);
    }

    /** Blind writes: every row is there and the read-only group's tables were never written. */
    private ConsistencyResult readOnlyUntouched(DatabaseSnapshot s, List<String> problems) {
        for (String g : GROUPS) {
            if (updates(g)) {
                continue;
            }
            for (String t : CrossGroupTxns.tables(g).subList(1, 2 + CrossGroupTxns.OTHERS)) {
                long sum = CounterTables.sum(s, t, CounterTables.CNT);
                if (sum != 0) {
                    problems.add("read-only group " + g + ": " + t + " has cnt sum " + sum + ", expected 0");
                }
            }
        }
        return problems.isEmpty() ? ConsistencyResult.ok("every row present; updates write blind")
                : ConsistencyResult.violated("updates write blind", problems);
    }
}
