package org.tebaldi.server.msg;

import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.cost.CostUnits;

/** TC → client: the results of a {@link TxnOps}, in order (null for writes, deletes and absent rows). */
public record OpsDone(long txnId, int firstOpId, Row[] rows) implements CostUnits {
    /** Work units: the result rows carried (one per operation). */
    @Override
    public int costUnits() {
        return rows.length;
    }
}
