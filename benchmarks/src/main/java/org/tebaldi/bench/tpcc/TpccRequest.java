package org.tebaldi.bench.tpcc;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.txn.Inputs;

/**
 * One transaction to run: its type, its inputs (in the type's parameter order) and, for an interactive type, the
 * body. A driver runs a stored procedure with {@code TxnClient.call(type, inputs, priority)}; an interactive one
 * with {@code TxnClient.begin(type, inputs, priority)}, then {@code body.apply(txn)}, then {@code txn.commit()}
 * once the body's future completed (the body never commits; on its failure the driver aborts the transaction).
 * A request may be re-run unchanged after a retryable abort.
 *
 * @param type   transaction type name, e.g. {@code new_order}
 * @param inputs the inputs
 * @param body   the interactive body, or null for a stored procedure
 */
public record TpccRequest(String type, Inputs inputs, Function<Transaction, CompletableFuture<?>> body) {
    /** @throws NullPointerException if {@code type} or {@code inputs} is null */
    public TpccRequest {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(inputs, "inputs");
    }

    /** True if this is a stored-procedure call ({@code body == null}). */
    public boolean isProcedure() {
        return body == null;
    }

    /** The same request in the workload-neutral form the driver runs. */
    public TxnRequest asTxnRequest() {
        return isProcedure() ? TxnRequest.procedure(type, inputs) : TxnRequest.interactive(type, inputs, body);
    }
}
