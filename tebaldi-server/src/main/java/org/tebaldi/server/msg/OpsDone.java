package org.tebaldi.server.msg;

import org.tebaldi.core.model.Row;

/** TC → client: the results of a {@link TxnOps}, in order (null for writes, deletes and absent rows). */
public record OpsDone(long txnId, int firstOpId, Row[] rows) {
}
