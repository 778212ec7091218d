package org.tebaldi.server.msg;

import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.cost.CostUnits;

/**
 * DS → TC: the operation's result row (null for writes, deletes, absent rows), or a failure with reason; plus
 * the dependencies reported at the DS since the last reply (bottom-up pass), and DS-part reports for
 * TC parts (null if none).
 */
public record ExecReply(long txnId, int opId, boolean ok, Row row, String reason, boolean retryable, TxnDep[] deps,
                        LevelReport[] reports) implements CostUnits {
    /** Work units: the dependencies and level reports carried (each is processed at the TC). */
    @Override
    public int costUnits() {
        return (deps == null ? 0 : deps.length) + (reports == null ? 0 : reports.length);
    }
}
