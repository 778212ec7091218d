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

    private Delivery() {
    }

    /** The procedure over {@code schema}'s catalog. */
    public static Procedure procedure(TpccSchema schema) {
        return Procedure.define(NAME, schema.catalog())
                .params("w_id", "o_carrier_id", "ol_delivery_d")
                .body(b -> {
                    b.let("delivered", lit(0L));
                    b.forRange("d_id", lit(1L), lit(TpccConfig.DISTRICTS + 1L), TpccConfig.DISTRICTS, d -> {
                        d.readForUpdate(TpccSchema.DISTRICT_DELIV, "cur", in("w_id"), local("d_id"));
                        d.abortIf(isNull(local("cur")), "delivery: no delivery cursor");
                        d.let("o_id", field("cur", "d_next_deliv_o_id"));
                        d.read(TpccSchema.NEW_ORDER, "no", in("w_id"), local("d_id"), local("o_id"));
                        d.ifThen(not(isNull(local("no"))), t -> {
                            t.delete(TpccSchema.NEW_ORDER, in("w_id"), local("d_id"), local("o_id"));
                            t.update(TpccSchema.DISTRICT_DELIV, null,
                                    List.of(set("d_next_deliv_o_id", add(col("d_next_deliv_o_id"), lit(1L)))),
                                    in("w_id"), local("d_id"));
                            t.update(TpccSchema.OORDER, "o", List.of(set("o_carrier_id", in("o_carrier_id"))),
                                    in("w_id"), local("d_id"), local("o_id"));
                            t.abortIf(isNull(local("o")), "delivery: new_order row without its order");
                            t.let("sum", lit(0.0));
                            t.forRange("ol", lit(1L), add(field("o", "o_ol_cnt"), lit(1L)), NewOrder.MAX_LINES,
                                    l -> {
                                        l.update(TpccSchema.ORDER_LINE, "line",
                                                List.of(set("ol_delivery_d", in("ol_delivery_d"))),
                                                in("w_id"), local("d_id"), local("o_id"), local("ol"));
                                        l.abortIf(isNull(local("line")), "delivery: order line missing");
                                        l.let("sum", add(local("sum"), field("line", "ol_amount")));
                                    });
                            t.update(TpccSchema.CUSTOMER, "c", List.of(
                                            set("c_balance", add(col("c_balance"), local("sum"))),
                                            set("c_delivery_cnt", add(col("c_delivery_cnt"), lit(1L)))),
                                    in("w_id"), local("d_id"), field("o", "o_c_id"));
                            t.abortIf(isNull(local("c")), "delivery: order's customer missing");
                            t.let("delivered", add(local("delivered"), lit(1L)));
                        });
                    });
                    b.output("delivered", local("delivered"));
                })
                .build();
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long wId, long carrierId, long deliveryDate) {
        return Inputs.of(wId, carrierId, deliveryDate);
    }
}
