package org.tebaldi.bench.seats;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.txn.Inputs;

/**
 * SEATS update_customer, interactive (benchbase UpdateCustomer, adapted after dissertation §4.6.2): reads the
 * customer for update, writes its two attributes back, then reads the customer's home airport (benchbase reads it
 * and does nothing with it). The customer is given by id (no lookup by id string) and frequent-flyer rows do not
 * exist in the adaptation. The customer is written before the airport is read so that the accesses follow the
 * declared table order {@link #ACCESS_ORDER} (customer, then airport) that runtime pipelining's analysis is told.
 *
 * <p>A missing customer or airport makes the body fail with {@link IllegalStateException} (never with valid inputs).
 */
public final class UpdateCustomer {
    /** Transaction type name. */
    public static final String NAME = "update_customer";
    /** Input names (for {@link org.tebaldi.core.db.Database#interactive}). */
    public static final String[] PARAMS = {"c_id", "attr0", "attr1"};
    /** The tables in the order the body accesses them. */
    public static final List<String> ACCESS_ORDER = List.of(SeatsSchema.CUSTOMER, SeatsSchema.AIRPORT);

    private UpdateCustomer() {
    }

    /** Inputs in parameter order. */
    public static Inputs inputs(long customerId, long attr0, long attr1) {
        return Inputs.of(customerId, attr0, attr1);
    }

    /** The body: completes with the customer's home airport code; does not commit. */
    public static Function<Transaction, CompletableFuture<String>> body(long customerId, long attr0, long attr1) {
        return t -> t.readForUpdate(SeatsSchema.CUSTOMER, customerId).thenCompose(c -> {
            if (c == null) {
                throw new IllegalStateException("update_customer: no customer " + customerId);
            }
            long ap = c.getLong("c_base_ap_id");
            return t.write(c.with("c_iattr00", attr0).with("c_iattr01", attr1), customerId)
                    .thenCompose(x -> t.read(SeatsSchema.AIRPORT, ap))
                    .thenApply(a -> {
                        if (a == null) {
                            throw new IllegalStateException("update_customer: customer " + customerId
                                    + " has home airport " + ap + ", which does not exist");
                        }
                        return a.getString("ap_code");
                    });
        });
    }
}
