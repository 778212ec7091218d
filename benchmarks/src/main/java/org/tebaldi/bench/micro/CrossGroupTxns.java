package org.tebaldi.bench.micro;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Block;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The two transaction shapes of the cross-group microbenchmark (dissertation §4.6.4, Fig 4.10), as stored
 * procedures over one group's tables {@code shared}, {@code local_<g>}, {@code other_<g>_1 .. other_<g>_5}:
 * <ul>
 *   <li>{@code update_<g>}: seven writes (§4.6.4: "an update transaction consisting of seven write operations"):
 *       first the row {@code s} of the shared table, then row {@code l} of the group-local table, then row
 *       {@code o_i} of each {@code other_<g>_i} table — blind writes of {@code cnt} 1 ({@link #update}), or, with
 *       the workload option {@code writes: increment}, increments of {@code cnt} (read-modify-write,
 *       {@link #updateIncrements}: checkable sums, but an abort cascades to the readers of its counts).</li>
 *   <li>{@code read_<g>}: the same seven rows read, nothing written (read-only). Output {@code sum}: the sum of
 *       the counts read.</li>
 * </ul>
 * Inputs, in order (Long): {@code s, l, o1, o2, o3, o4, o5}. A missing row is a user abort (never with valid
 * inputs: every row is loaded).
 */
final class CrossGroupTxns {
    /** Writes (or reads) per transaction: shared, local, then this many others. */
    static final int OTHERS = 5;
    static final String SHARED = "shared";
    static final String[] PARAMS = {"s", "l", "o1", "o2", "o3", "o4", "o5"};

    private CrossGroupTxns() {
    }

    /** Table {@code local_<g>}. */
    static String localTable(String group) {
        return "local_" + group;
    }

    /** Table {@code other_<g>_<i>}, {@code i} in 1..5. */
    static String other(String group, int i) {
        return "other_" + group + "_" + i;
    }

    /** {@code update_<g>}. */
    static String updateName(String group) {
        return "update_" + group;
    }

    /** {@code read_<g>}. */
    static String readName(String group) {
        return "read_" + group;
    }

    /** The tables of group {@code g} in access order (shared first). */
    static List<String> tables(String group) {
        List<String> t = new java.util.ArrayList<>();
        t.add(SHARED);
        t.add(localTable(group));
        for (int i = 1; i <= OTHERS; i++) {
            t.add(other(group, i));
        }
        return t;
    }

    /** {@code update_<g>}: writes one row of each of the group's seven tables, in order (blind, {@code cnt} 1). */
    static Procedure update(Catalog catalog, String group) {
        List<String> tables = tables(group);
        return Procedure.define(updateName(group), catalog).params(PARAMS).body(b -> {
            for (int i = 0; i < tables.size(); i++) {
                b.write(tables.get(i), row(CounterTables.CNT, lit(1L)), in(PARAMS[i]));
            }
        }).build();
    }

    /** {@code update_<g>}: increments one row of each of the group's seven tables, in order. */
    static Procedure updateIncrements(Catalog catalog, String group) {
        List<String> tables = tables(group);
        return Procedure.define(updateName(group), catalog).params(PARAMS).body(b -> {
            for (int i = 0; i < tables.size(); i++) {
                increment(b, tables.get(i), "r" + i, PARAMS[i]);
            }
            b.output("shared", field("r0", CounterTables.CNT));
        }).build();
    }

    /** {@code read_<g>}: reads one row of each of the group's seven tables, in order. */
    static Procedure read(Catalog catalog, String group) {
        List<String> tables = tables(group);
        return Procedure.define(readName(group), catalog).params(PARAMS).body(b -> {
            b.let("sum", lit(0L));
            for (int i = 0; i < tables.size(); i++) {
                String r = "r" + i;
                b.read(tables.get(i), r, in(PARAMS[i]));
                b.abortIf(isNull(local(r)), "read_" + group + ": no row in " + tables.get(i));
                b.let("sum", add(local("sum"), field(r, CounterTables.CNT)));
            }
            b.output("sum", local("sum"));
        }).build();
    }

    private static void increment(Block b, String table, String into, String param) {
        b.update(table, into, List.of(set(CounterTables.CNT, add(col(CounterTables.CNT), lit(1L)))), in(param));
        b.abortIf(isNull(local(into)), "no row in " + table);
    }

    /** Inputs in parameter order. */
    static Inputs inputs(long s, long l, long[] others) {
        Object[] v = new Object[2 + OTHERS];
        v[0] = s;
        v[1] = l;
        for (int i = 0; i < OTHERS; i++) {
            v[2 + i] = others[i];
        }
        return Inputs.of(v);
    }
}
