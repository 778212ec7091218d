package org.tebaldi.bench.tpcc;

import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.txn.Inputs;

/**
 * The payment transaction (TPC-C §2.5.2) as a stored procedure: adds the amount to the warehouse's and the
 * district's year-to-date totals (read-modify-writes), charges the customer (balance, ytd payment, payment count
 * and, for bad-credit "BC" customers, the payment record prepended to c_data) and inserts a history row.
 *
 * <p>Adaptations (dissertation §4.6): the customer is selected by id only (no last-name scan, the 60/40 rule is
 * dropped). The history key is the paying customer plus the client-generated {@code h_seq} (see
 * {@link TpccSchema}). The stored-procedure language has no substring, so a BC customer's c_data grows by one
 * record (about 30 characters) per payment instead of being truncated at 500 characters (§2.5.2.2); no
 * transaction reads c_data.
 *
 * <p>Inputs, in order: {@code w_id, d_id} (the paying warehouse and district), {@code c_w_id, c_d_id, c_id} (the
 * customer; another warehouse for remote payments), {@code h_amount} (Double, dollars), {@code h_seq} (Long),
 * {@code h_date} (Long, epoch ms). Output: {@code c_balance} (Double, after the payment).
 */
public final class Payment {
    /** Transaction type name. */
    public static final String NAME = "payment";

    private Payment() {
    }

    /** The procedure over {@code schema}'s catalog. */
    public static Procedure procedure(TpccSchema schema) {
        return Procedure.define(NAME, schema.catalog())
                .params("w_id", "d_id", "c_w_id", "c_d_id", "c_id", "h_amount", "h_seq", "h_date")
                .body(b -> {
                    b.update(TpccSchema.WAREHOUSE, "w", List.of(set("w_ytd", add(col("w_ytd"), in("h_amount")))),
                            in("w_id"));
                    b.abortIf(isNull(local("w")), "payment: no such warehouse");
                    b.update(TpccSchema.DISTRICT, "d", List.of(set("d_ytd", add(col("d_ytd"), in("h_amount")))),
                            in("w_id"), in("d_id"));
                    b.abortIf(isNull(local("d")), "payment: no such district");
                    b.update(TpccSchema.CUSTOMER, "c", List.of(
                                    set("c_balance", sub(col("c_balance"), in("h_amount"))),
                                    set("c_ytd_payment", add(col("c_ytd_payment"), in("h_amount"))),
                                    set("c_payment_cnt", add(col("c_payment_cnt"), lit(1L))),
                                    set("c_data", cond(eq(col("c_credit"), lit("BC")),
                                            concat(in("c_id"), lit(" "), in("c_d_id"), lit(" "), in("c_w_id"),
                                                    lit(" "), in("d_id"), lit(" "), in("w_id"), lit(" "),
                                                    in("h_amount"), lit("|"), col("c_data")),
                                            col("c_data")))),
                            in("c_w_id"), in("c_d_id"), in("c_id"));
                    b.abortIf(isNull(local("c")), "payment: no such customer");
                    b.write(TpccSchema.HISTORY, row("h_d_id", in("d_id"), "h_w_id", in("w_id"), "h_date", in("h_date"),
                                    "h_amount", in("h_amount"),
                                    "h_data", concat(field("w", "w_name"), lit("    "), field("d", "d_name"))),
                            in("c_w_id"), in("c_d_id"), in("c_id"), in("h_seq"));
                    b.output("c_balance", field("c", "c_balance"));
                })
                .build();
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long wId, long dId, long cWId, long cDId, long cId, double amount, long hSeq,
                                long date) {
        return Inputs.of(wId, dId, cWId, cDId, cId, amount, hSeq, date);
    }
}
