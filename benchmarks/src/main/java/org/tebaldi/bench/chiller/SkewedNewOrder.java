package org.tebaldi.bench.chiller;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The {@code new_order} transaction of the skewed NewOrder workload ({@link SkewedNewOrderWorkload}) as a stored
 * procedure, in the order Chiller's compilation gives TPC-C's NewOrder (Zamanian et al., SIGMOD 2020, §3.3, Fig 4):
 * the lines' stock updates first (the client sorts the lines from the least to the most popular item, so the hot
 * stock rows come last), then the district's {@code d_next_o_id} increment (TPC-C's other contention point), then
 * the order and its lines, whose keys depend on the order id. Per line: {@code s_quantity} with TPC-C's "+91 if below
 * 10" rule, {@code s_order_cnt + 1}, {@code s_remote_cnt + 1} when the supplying warehouse is not the home one.
 *
 * <p>Inputs, in order: {@code w_id, d_id, c_id} (Long), {@code item_ids, supply_w_ids, quantities} (long[] of equal
 * length, 1 to {@link #MAX_LINES}). Output {@code o_id}.
 */
public final class SkewedNewOrder {
    /** Transaction type name. */
    public static final String NAME = "new_order";
    /** Most lines per order (TPC-C: 15). */
    public static final int MAX_LINES = 15;

    private SkewedNewOrder() {
    }

    /** The procedure over {@code catalog} ({@link SkewedNewOrderWorkload}'s tables). */
    public static Procedure procedure(Catalog catalog) {
        return Procedure.define(NAME, catalog)
                .params("w_id", "d_id", "c_id", "item_ids", "supply_w_ids", "quantities")
                .body(b -> {
                    b.let("n", len(in("item_ids")));
                    b.forRange("i", lit(0L), local("n"), MAX_LINES, l -> {
                        l.let("q", elem(in("quantities"), local("i")));
                        l.let("sw", elem(in("supply_w_ids"), local("i")));
                        l.update(SkewedNewOrderWorkload.STOCK, "s", List.of(
                                        set("s_quantity", cond(ge(col("s_quantity"), add(local("q"), lit(10L))),
                                                sub(col("s_quantity"), local("q")),
                                                add(sub(col("s_quantity"), local("q")), lit(91L)))),
                                        set("s_order_cnt", add(col("s_order_cnt"), lit(1L))),
                                        set("s_remote_cnt", add(col("s_remote_cnt"),
                                                cond(eq(local("sw"), in("w_id")), lit(0L), lit(1L))))),
                                local("sw"), elem(in("item_ids"), local("i")));
                        l.abortIf(isNull(local("s")), "new_order: no stock row");
                    });
                    b.update(SkewedNewOrderWorkload.DISTRICT, "d", List.of(set("d_next_o_id",
                            add(col("d_next_o_id"), lit(1L)))), in("w_id"), in("d_id"));
                    b.abortIf(isNull(local("d")), "new_order: no such district");
                    b.let("o_id", sub(field("d", "d_next_o_id"), lit(1L)));
                    b.write(SkewedNewOrderWorkload.ORDERS, row("o_c_id", in("c_id"), "o_ol_cnt", local("n")),
                            in("w_id"), in("d_id"), local("o_id"));
                    b.forRange("j", lit(0L), local("n"), MAX_LINES, l ->
                            l.write(SkewedNewOrderWorkload.ORDER_LINE, row(
                                            "ol_i_id", elem(in("item_ids"), local("j")),
                                            "ol_supply_w_id", elem(in("supply_w_ids"), local("j")),
                                            "ol_quantity", elem(in("quantities"), local("j"))),
                                    in("w_id"), in("d_id"), local("o_id"), add(local("j"), lit(1L))));
                    b.output("o_id", local("o_id"));
                })
                .build();
    }

    /**
     * Inputs in parameter order.
     *
     * @throws IllegalArgumentException for 0 or more than {@link #MAX_LINES} lines, or arrays of different lengths
     */
    public static Inputs inputs(long wId, long dId, long cId, long[] items, long[] supply, long[] qty) {
        if (items.length < 1 || items.length > MAX_LINES || supply.length != items.length
                || qty.length != items.length) {
            throw new IllegalArgumentException("new_order needs 1.." + MAX_LINES + " lines of equal arrays, got "
                    + items.length + "/" + supply.length + "/" + qty.length);
        }
        return Inputs.of(wId, dId, cId, items, supply, qty);
    }
}
