package org.tebaldi.bench.workload;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.txn.Inputs;

/**
 * One transaction a client wants to run: its type and inputs, run either as a stored procedure
 * ({@link org.tebaldi.core.client.TxnClient#call}) or as an interactive body.
 *
 * <p>An interactive body receives a begun {@link Transaction}, issues its operations and returns a future that
 * completes when they are done; the driver then commits. The body must not commit or abort by itself and must
 * not block; it runs again, on a fresh transaction, for every retried attempt.
 *
 * <p>An optional {@code onEnd} listener hears how each attempt ended — null when it committed, else the failure
 * (a {@link org.tebaldi.core.txn.TxnAbortedException} for an abort) — once per attempt, from the thread that
 * completed it; it must not block (the list-append workload records outcomes with it).
 *
 * @param type   transaction type name, e.g. {@code new_order}
 * @param inputs the inputs, in the type's parameter order (reused unchanged on retries)
 * @param body   the interactive body, or null for a stored procedure
 * @param onEnd  the attempt-outcome listener, or null
 */
public record TxnRequest(String type, Inputs inputs, Function<Transaction, CompletableFuture<?>> body,
                         Consumer<Throwable> onEnd) {
    /** @throws NullPointerException if {@code type} or {@code inputs} is null */
    public TxnRequest {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(inputs, "inputs");
    }

    /** A request without an outcome listener. */
    public TxnRequest(String type, Inputs inputs, Function<Transaction, CompletableFuture<?>> body) {
        this(type, inputs, body, null);
    }

    /** A stored-procedure call of {@code type}. */
    public static TxnRequest procedure(String type, Inputs inputs) {
        return new TxnRequest(type, inputs, null);
    }

    /**
     * An interactive transaction of {@code type}.
     *
     * @throws NullPointerException if {@code body} is null
     */
    public static TxnRequest interactive(String type, Inputs inputs, Function<Transaction, CompletableFuture<?>> body) {
        return new TxnRequest(type, inputs, Objects.requireNonNull(body, "body"));
    }

    /**
     * An interactive transaction of {@code type} whose attempts' outcomes go to {@code onEnd}.
     *
     * @throws NullPointerException if {@code body} or {@code onEnd} is null
     */
    public static TxnRequest interactive(String type, Inputs inputs, Function<Transaction, CompletableFuture<?>> body,
                                         Consumer<Throwable> onEnd) {
        return new TxnRequest(type, inputs, Objects.requireNonNull(body, "body"), Objects.requireNonNull(onEnd,
                "onEnd"));
    }

    /** Tells the outcome listener, if any, how an attempt ended ({@code failure} null: committed). */
    public void ended(Throwable failure) {
        if (onEnd != null) {
            onEnd.accept(failure);
        }
    }

    /** True if this request runs a stored procedure. */
    public boolean isProcedure() {
        return body == null;
    }
}
