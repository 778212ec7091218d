package org.tebaldi.bench.micro;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;

/**
 * The three transactions of the two-vs-three-layer microbenchmark (dissertation §4.6.4 "Hierarchical application of
 * MCC", Fig 4.11) as stored procedures over tables {@code a} (hot) and {@code b .. e}, each row holding {@code cnt}
 * (T2's increments), {@code t3} (T3's updates) and {@code seen} (what the last T3 read):
 * <ul>
 *   <li>{@code t1}, read-only: reads row {@code a} of A, then ten rows: {@code b1..b3} of B, {@code c1, c2} of C,
 *       {@code d1..d3} of D, {@code e1, e2} of E (in table order). Output {@code sum}: the counts read.</li>
 *   <li>{@code t2}: writes row {@code a} of A, then one row in each of B, C, D, E ({@code b, c, d, e}) — as
 *       §4.6.4 says, "first writes a row in A, and subsequently writes a random key from every table B to E": a
 *       blind write of the whole row ({@code cnt} 1, {@code t3} 0, {@code seen} 0), so it reads nothing and a
 *       T2 that aborts takes no reader with it; or ({@link #t2Increments}, the workload option
 *       {@code t2: increment}) increments {@code cnt} of each row instead, a read-modify-write whose
 *       consistency is checkable (sums of A..E equal) but whose every abort cascades to the T2s that read its
 *       uncommitted count.</li>
 *   <li>{@code t3}: reads row {@code b} of B and rows {@code c, d, e} of C, D, E, then writes the B row back (the
 *       whole row: its {@code cnt} as read, {@code t3 + 1}, {@code seen} = the three counts read) — a
 *       read-then-write, so a T2 increment of that row in between would be lost without concurrency control.</li>
 * </ul>
 * Inputs (all Long): t1 {@code a, b1, b2, b3, c1, c2, d1, d2, d3, e1, e2}; t2 {@code a, b, c, d, e}; t3
 * {@code b, c, d, e}. A missing row is a user abort (never with valid inputs).
 */
final class LayersTxns {
    static final String T1 = "t1";
    static final String T2 = "t2";
    static final String T3 = "t3";
    static final String A = "a";
    /** The rarely-contended tables, in access order. */
    static final List<String> OTHERS = List.of("b", "c", "d", "e");
    /** How many of T1's ten reads go to each of B, C, D, E. */
    static final int[] T1_READS = {3, 2, 3, 2};
    static final String T3_COL = "t3";
    static final String SEEN = "seen";

    private LayersTxns() {
    }

    /** T1's parameter names: {@code a}, then e.g. {@code b1, b2, b3, c1, ...}. */
    static String[] t1Params() {
        List<String> p = new java.util.ArrayList<>();
        p.add(A);
        for (int t = 0; t < OTHERS.size(); t++) {
            for (int i = 1; i <= T1_READS[t]; i++) {
                p.add(OTHERS.get(t) + i);
            }
        }
        return p.toArray(new String[0]);
    }

    static Procedure t1(Catalog c) {
        String[] params = t1Params();
        return Procedure.define(T1, c).params(params).body(b -> {
            b.let("sum", lit(0L));
            for (String p : params) {
                String table = p.substring(0, 1);
                String r = "r_" + p;
                b.read(table, r, in(p));
                b.abortIf(isNull(local(r)), "t1: no row " + p + " in " + table);
                b.let("sum", add(local("sum"), field(r, CounterTables.CNT)));
            }
            b.output("sum", local("sum"));
        }).build();
    }

    /** T2 as the dissertation describes it: blind writes of A's row and of one row of each of B..E. */
    static Procedure t2(Catalog c) {
        return Procedure.define(T2, c).params(A, "b", "c", "d", "e").body(b -> {
            for (String t : List.of(A, "b", "c", "d", "e")) {
                b.write(t, row(CounterTables.CNT, lit(1L), T3_COL, lit(0L), SEEN, lit(0L)), in(t));
            }
        }).build();
    }

    /** T2 incrementing {@code cnt} of each row (read-modify-write; workload option {@code t2: increment}). */
    static Procedure t2Increments(Catalog c) {
        return Procedure.define(T2, c).params(A, "b", "c", "d", "e").body(b -> {
            for (String t : List.of(A, "b", "c", "d", "e")) {
                b.update(t, "r_" + t, List.of(set(CounterTables.CNT, add(col(CounterTables.CNT), lit(1L)))), in(t));
                b.abortIf(isNull(local("r_" + t)), "t2: no row in " + t);
            }
            b.output("a_cnt", field("r_a", CounterTables.CNT));
        }).build();
    }

    static Procedure t3(Catalog c) {
        return Procedure.define(T3, c).params("b", "c", "d", "e").body(b -> {
            for (String t : OTHERS) {
                b.read(t, "r_" + t, in(t));
                b.abortIf(isNull(local("r_" + t)), "t3: no row in " + t);
            }
            b.write("b", row(CounterTables.CNT, field("r_b", CounterTables.CNT),
                    T3_COL, add(field("r_b", T3_COL), lit(1L)),
                    SEEN, add(field("r_c", CounterTables.CNT), add(field("r_d", CounterTables.CNT),
                            field("r_e", CounterTables.CNT)))), in("b"));
        }).build();
    }
}
