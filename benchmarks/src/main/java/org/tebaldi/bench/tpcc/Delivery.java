package org.tebaldi.bench.tpcc;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The delivery transaction (TPC-C §2.7.4) as a stored procedure, run as one transaction for the ten districts of
 * a warehouse. Per district it reads the delivery cursor {@code district_deliv.d_next_deliv_o_id} (for update),
 * reads that {@code new_order} row — absent means the district has no undelivered order and is skipped — deletes
 * it, advances the cursor, sets the order's carrier, stamps every order line's delivery date while summing the
 * amounts, and adds the sum to the customer's balance and increments its delivery count. (The cursor is advanced
 * right after the delete so that a static table-order analysis such as runtime pipelining's, §4.4.2, sees
 * district_deliv and new_order next to each other.)
 *
 * <p>The ten districts are independent, so the work runs in five phases, each a loop over the districts whose
 * accesses need only the earlier phases' results — the cursors, the new_order rows, the delete/cursor/order
 * updates, the order lines, the customers — and each phase's operations go out together, one request per data
 * server (five round trips instead of four per district). Values a later phase needs are kept in arrays indexed by
 * district (order lines: by district × line).
 *
 * <p>Adaptation (dissertation §4.6: no scans in a key-value store): the cursor replaces the search for the
 * district's oldest {@code new_order} row; it stays equal to that row's id because new_order rows of a district
 * are contiguous (consistency condition 3) and only delivery removes them, oldest first. See {@link TpccSchema}
 * for why the cursor is not a column of {@code district}.
 *
 * <p>Inputs, in order: {@code w_id}, {@code o_carrier_id} (1..10), {@code ol_delivery_d} (epoch ms), all Long.
 * Output: {@code delivered} (Long, number of districts whose oldest order was delivered).
 */
public final class Delivery {
    /** Transaction type name. */
    public static final String NAME = "delivery";
    private static final long DISTRICTS = TpccConfig.DISTRICTS;
    private static final long LINES = NewOrder.MAX_LINES;

    private Delivery() {
    }

    /** District {@code d_id}'s slot in the per-district arrays. */
    private static org.tebaldi.core.proc.Expr slot() {
        return sub(local("d_id"), lit(1L));
    }

    /** The procedure over {@code schema}'s catalog. */
    public static Procedure procedure(TpccSchema schema) {
        return Procedure.define(NAME, schema.catalog())
                .params("w_id", "o_carrier_id", "ol_delivery_d")
                .body(b -> {
                    b.newArray("o_ids", lit(DISTRICTS));
                    b.newArray("found", lit(DISTRICTS));
                    b.newArray("ol_cnts", lit(DISTRICTS));
                    b.newArray("c_ids", lit(DISTRICTS));
                    b.newArray("amounts", lit(DISTRICTS * LINES));
                    eachDistrict(b, d -> {
                        d.readForUpdate(TpccSchema.DISTRICT_DELIV, "cur", in("w_id"), local("d_id"));
                        d.abortIf(isNull(local("cur")), "delivery: no delivery cursor");
                        d.setElem("o_ids", slot(), field("cur", "d_next_deliv_o_id"));
                    });
                    eachDistrict(b, d -> {
                        d.read(TpccSchema.NEW_ORDER, "no", in("w_id"), local("d_id"), elem(local("o_ids"), slot()));
                        d.setElem("found", slot(), not(isNull(local("no"))));
                    });
                    eachDelivered(b, t -> {
                        t.let("o_id", elem(local("o_ids"), slot()));
                        t.delete(TpccSchema.NEW_ORDER, in("w_id"), local("d_id"), local("o_id"));
                        t.update(TpccSchema.DISTRICT_DELIV, null,
                                List.of(set("d_next_deliv_o_id", add(col("d_next_deliv_o_id"), lit(1L)))),
                                in("w_id"), local("d_id"));
                        t.update(TpccSchema.OORDER, "o", List.of(set("o_carrier_id", in("o_carrier_id"))),
                                in("w_id"), local("d_id"), local("o_id"));
                        t.abortIf(isNull(local("o")), "delivery: new_order row without its order");
                        t.setElem("ol_cnts", slot(), field("o", "o_ol_cnt"));
                        t.setElem("c_ids", slot(), field("o", "o_c_id"));
                    });
                    eachDelivered(b, t -> t.forRange("ol", lit(1L), add(elem(local("ol_cnts"), slot()), lit(1L)),
                            NewOrder.MAX_LINES, l -> {
                                l.update(TpccSchema.ORDER_LINE, "line", List.of(set("ol_delivery_d", in("ol_delivery_d"))),
                                        in("w_id"), local("d_id"), elem(local("o_ids"), slot()), local("ol"));
                                l.abortIf(isNull(local("line")), "delivery: order line missing");
                                l.setElem("amounts", add(mul(slot(), lit(LINES)), sub(local("ol"), lit(1L))),
                                        field("line", "ol_amount"));
                            }));
                    b.let("delivered", lit(0L));
                    eachDelivered(b, t -> {
                        t.let("sum", lit(0.0));
                        t.forRange("ol", lit(0L), elem(local("ol_cnts"), slot()), NewOrder.MAX_LINES, l -> l.let("sum",
                                add(local("sum"), elem(local("amounts"), add(mul(slot(), lit(LINES)), local("ol"))))));
                        t.update(TpccSchema.CUSTOMER, "c", List.of(
                                        set("c_balance", add(col("c_balance"), local("sum"))),
                                        set("c_delivery_cnt", add(col("c_delivery_cnt"), lit(1L)))),
                                in("w_id"), local("d_id"), elem(local("c_ids"), slot()));
                        t.abortIf(isNull(local("c")), "delivery: order's customer missing");
                        t.let("delivered", add(local("delivered"), lit(1L)));
                    });
                    b.output("delivered", local("delivered"));
                })
                .build();
    }

    /** A loop over the districts 1..10. */
    private static void eachDistrict(org.tebaldi.core.proc.Block b, java.util.function.Consumer<org.tebaldi.core.proc.Block> body) {
        b.forRange("d_id", lit(1L), lit(DISTRICTS + 1), TpccConfig.DISTRICTS, body);
    }

    /** A loop over the districts whose oldest undelivered order was found. */
    private static void eachDelivered(org.tebaldi.core.proc.Block b,
                                      java.util.function.Consumer<org.tebaldi.core.proc.Block> body) {
        eachDistrict(b, d -> d.ifThen(elem(local("found"), slot()), body));
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long wId, long carrierId, long deliveryDate) {
        return Inputs.of(wId, carrierId, deliveryDate);
    }
}
