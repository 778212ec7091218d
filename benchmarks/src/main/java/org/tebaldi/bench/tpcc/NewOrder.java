package org.tebaldi.bench.tpcc;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The new_order transaction (TPC-C §2.4.2) as a stored procedure. Reads the warehouse tax, takes the next order
 * id from the district with a read-modify-write, reads the customer, inserts the order, its {@code new_order} row
 * and the {@code customer_last_order} index entry, then per line reads the item, updates the supplying
 * warehouse's stock (quantity with the spec's "+91 if below 10" rule, s_ytd, s_order_cnt, s_remote_cnt) and
 * inserts the order line with the district's s_dist_xx as ol_dist_info.
 *
 * <p>Adaptations (dissertation §4.6): no 1% rolled-back orders (an unknown item or customer is a user abort,
 * which a correct input generator never triggers); the brand-generic flag and other display-only outputs are not
 * computed.
 *
 * <p>Inputs, in order: {@code w_id, d_id, c_id} (Long), {@code item_ids, supply_w_ids, quantities} (long[] of equal
 * length 1..15), {@code o_entry_d} (Long, epoch ms). Outputs: {@code o_id} (Long), {@code total} (Double, the
 * order total with discount and taxes, TPC-C §2.4.2.2).
 */
public final class NewOrder {
    /** Transaction type name. */
    public static final String NAME = "new_order";
    /** Most lines per order (TPC-C §2.4.1.3). */
    public static final int MAX_LINES = 15;

    private NewOrder() {
    }

    /** The procedure over {@code schema}'s catalog. */
    public static Procedure procedure(TpccSchema schema) {
        return Procedure.define(NAME, schema.catalog())
                .params("w_id", "d_id", "c_id", "item_ids", "supply_w_ids", "quantities", "o_entry_d")
                .body(b -> {
                    b.read(TpccSchema.WAREHOUSE, "w", in("w_id"));
                    b.abortIf(isNull(local("w")), "new_order: no such warehouse");
                    b.update(TpccSchema.DISTRICT, "d", List.of(set("d_next_o_id", add(col("d_next_o_id"), lit(1L)))),
                            in("w_id"), in("d_id"));
                    b.abortIf(isNull(local("d")), "new_order: no such district");
                    b.let("o_id", sub(field("d", "d_next_o_id"), lit(1L)));
                    b.read(TpccSchema.CUSTOMER, "c", in("w_id"), in("d_id"), in("c_id"));
                    b.abortIf(isNull(local("c")), "new_order: no such customer");
                    b.let("n", len(in("item_ids")));
                    b.let("all_local", lit(1L));
                    b.forRange("k", lit(0L), local("n"), MAX_LINES, l ->
                            l.ifThen(ne(elem(in("supply_w_ids"), local("k")), in("w_id")),
                                    t -> t.let("all_local", lit(0L))));
                    b.write(TpccSchema.OORDER, row("o_c_id", in("c_id"), "o_entry_d", in("o_entry_d"),
                                    "o_ol_cnt", local("n"), "o_all_local", local("all_local")),
                            in("w_id"), in("d_id"), local("o_id"));
                    b.write(TpccSchema.NEW_ORDER, row(), in("w_id"), in("d_id"), local("o_id"));
                    b.write(TpccSchema.CUSTOMER_LAST_ORDER, row("clo_o_id", local("o_id")),
                            in("w_id"), in("d_id"), in("c_id"));
                    b.let("total", lit(0.0));
                    b.forRange("i", lit(0L), local("n"), MAX_LINES, l -> {
                        l.let("i_id", elem(in("item_ids"), local("i")));
                        l.let("sw", elem(in("supply_w_ids"), local("i")));
                        l.let("q", elem(in("quantities"), local("i")));
                        l.read(TpccSchema.ITEM, "it", local("i_id"));
                        l.abortIf(isNull(local("it")), "new_order: unknown item");
                        l.update(TpccSchema.STOCK, "s", List.of(
                                        set("s_quantity", cond(ge(col("s_quantity"), add(local("q"), lit(10L))),
                                                sub(col("s_quantity"), local("q")),
                                                add(sub(col("s_quantity"), local("q")), lit(91L)))),
                                        set("s_ytd", add(col("s_ytd"), local("q"))),
                                        set("s_order_cnt", add(col("s_order_cnt"), lit(1L))),
                                        set("s_remote_cnt", add(col("s_remote_cnt"),
                                                cond(eq(local("sw"), in("w_id")), lit(0L), lit(1L))))),
                                local("sw"), local("i_id"));
                        l.abortIf(isNull(local("s")), "new_order: no stock row");
                        l.let("amount", mul(local("q"), field("it", "i_price")));
                        l.let("total", add(local("total"), local("amount")));
                        l.write(TpccSchema.ORDER_LINE, row("ol_i_id", local("i_id"), "ol_supply_w_id", local("sw"),
                                        "ol_quantity", local("q"), "ol_amount", local("amount"),
                                        "ol_dist_info", distInfo()),
                                in("w_id"), in("d_id"), local("o_id"), add(local("i"), lit(1L)));
                    });
                    b.output("o_id", local("o_id"));
                    b.output("total", mul(local("total"), mul(sub(lit(1.0), field("c", "c_discount")),
                            add(lit(1.0), add(field("w", "w_tax"), field("d", "d_tax"))))));
                })
                .build();
    }

    /** {@code s_dist_<d_id>} of the updated stock row, as a chain of conditionals over the district id. */
    private static Expr distInfo() {
        Expr e = field("s", TpccSchema.distColumn(TpccConfig.DISTRICTS));
        for (int d = TpccConfig.DISTRICTS - 1; d >= 1; d--) {
            e = cond(eq(in("d_id"), lit((long) d)), field("s", TpccSchema.distColumn(d)), e);
        }
        return e;
    }

    /**
     * Inputs in parameter order.
     *
     * @throws IllegalArgumentException if the arrays differ in length or hold 0 or more than 15 lines
     */
    public static Inputs inputs(long wId, long dId, long cId, long[] itemIds, long[] supplyWIds, long[] quantities,
                                long entryDate) {
        if (itemIds.length < 1 || itemIds.length > MAX_LINES || supplyWIds.length != itemIds.length
                || quantities.length != itemIds.length) {
            throw new IllegalArgumentException("new_order needs 1.." + MAX_LINES + " lines of equal length, got "
                    + itemIds.length + "/" + supplyWIds.length + "/" + quantities.length);
        }
        return Inputs.of(wId, dId, cId, itemIds, supplyWIds, quantities, entryDate);
    }
}
