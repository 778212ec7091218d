package org.tebaldi.bench.ycsb;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The YCSB transaction {@code ycsb} as a stored procedure of {@code m = opsPerTxn} operations on {@code usertable},
 * one after the other: operation {@code i} reads row {@code k_i}, or — when {@code w_i = 1} — updates it
 * (read-modify-write): {@code balance += d_i} and {@code field0 = v_i}. The client makes the deltas of one
 * transaction sum to zero (see {@link YcsbClient}), so the sum of all balances stays 0 under any serializable
 * execution, and a lost update shows.
 *
 * <p>Inputs, in order: {@code k_0 .. k_{m-1}} (Long keys), {@code w_0 .. w_{m-1}} (Long, 1 = update, 0 = read),
 * {@code d_0 .. d_{m-1}} (Long deltas, 0 for reads), {@code v_0 .. v_{m-1}} (String new field0 values, empty for
 * reads). Output {@code read_sum}: the sum of the balances read by the read operations. A missing row is a user
 * abort (never with valid keys).
 */
public final class YcsbTxn {
    /** Transaction type name. */
    public static final String NAME = "ycsb";

    private YcsbTxn() {
    }

    /** Parameter names for {@code ops} operations, in input order. */
    static String[] params(int ops) {
        List<String> p = new ArrayList<>();
        for (String prefix : List.of("k_", "w_", "d_", "v_")) {
            for (int i = 0; i < ops; i++) {
                p.add(prefix + i);
            }
        }
        return p.toArray(new String[0]);
    }

    /** The procedure for {@code ops} operations over {@code catalog}'s {@code usertable}. */
    public static Procedure procedure(Catalog catalog, int ops) {
        return Procedure.define(NAME, catalog).params(params(ops)).body(b -> {
            b.let("read_sum", lit(0L));
            for (int i = 0; i < ops; i++) {
                String r = "r_" + i;
                String key = "k_" + i;
                String delta = "d_" + i;
                String value = "v_" + i;
                b.ifThenElse(eq(in("w_" + i), lit(1L)), u -> {
                    u.update(YcsbWorkload.TABLE, r, List.of(
                            set(YcsbWorkload.BALANCE, add(col(YcsbWorkload.BALANCE), in(delta))),
                            set(YcsbWorkload.field(0), in(value))), in(key));
                    u.abortIf(isNull(local(r)), "ycsb: no row " + key);
                }, rd -> {
                    rd.read(YcsbWorkload.TABLE, r, in(key));
                    rd.abortIf(isNull(local(r)), "ycsb: no row " + key);
                    rd.let("read_sum", add(local("read_sum"), field(r, YcsbWorkload.BALANCE)));
                });
            }
            b.output("read_sum", local("read_sum"));
        }).build();
    }

    /**
     * Inputs in parameter order.
     *
     * @throws IllegalArgumentException if the arrays' lengths differ
     */
    public static Inputs inputs(long[] keys, boolean[] update, long[] deltas, String[] values) {
        int m = keys.length;
        if (update.length != m || deltas.length != m || values.length != m) {
            throw new IllegalArgumentException("ycsb inputs: " + m + " keys but " + update.length + " kinds, "
                    + deltas.length + " deltas, " + values.length + " values");
        }
        Object[] v = new Object[4 * m];
        for (int i = 0; i < m; i++) {
            v[i] = keys[i];
            v[m + i] = update[i] ? 1L : 0L;
            v[2 * m + i] = deltas[i];
            v[3 * m + i] = values[i];
        }
        return Inputs.of(v);
    }
}
