package org.tebaldi.bench.tpcc;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The {@code hot_item} transaction of the extensibility experiment (dissertation §4.6.3, Fig 4.9) as a stored
 * procedure: reads the district's next order id, the line count of the district's latest order (id
 * {@code d_next_o_id - 1}: the figure's {@code next_order_id} names an order not yet placed), each of its lines'
 * item ids, and increments {@code item_stats[item].is_count} per line (read-modify-write).
 *
 * <p>Inputs, in order: {@code w_id, d_id} (Long). Output: {@code o_id} (Long, the sampled order).
 */
public final class HotItem {
    /** Transaction type name. */
    public static final String NAME = "hot_item";

    private HotItem() {
    }

    /** The procedure over {@code schema}'s catalog. */
    public static Procedure procedure(TpccSchema schema) {
        return Procedure.define(NAME, schema.catalog())
                .params("w_id", "d_id")
                .body(b -> {
                    b.read(TpccSchema.DISTRICT, "d", in("w_id"), in("d_id"));
                    b.abortIf(isNull(local("d")), "hot_item: no such district");
                    b.let("o_id", sub(field("d", "d_next_o_id"), lit(1L)));
                    b.read(TpccSchema.OORDER, "o", in("w_id"), in("d_id"), local("o_id"));
                    b.abortIf(isNull(local("o")), "hot_item: latest order missing");
                    b.forRange("ol", lit(1L), add(field("o", "o_ol_cnt"), lit(1L)), NewOrder.MAX_LINES, l -> {
                        l.read(TpccSchema.ORDER_LINE, "line", in("w_id"), in("d_id"), local("o_id"), local("ol"));
                        l.abortIf(isNull(local("line")), "hot_item: order line missing");
                        l.update(TpccSchema.ITEM_STATS, "st", List.of(set("is_count", add(col("is_count"), lit(1L)))),
                                field("line", "ol_i_id"));
                        l.abortIf(isNull(local("st")), "hot_item: no item_stats row (load with the hot_item mix)");
                    });
                    b.output("o_id", local("o_id"));
                })
                .build();
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long wId, long dId) {
        return Inputs.of(wId, dId);
    }
}
