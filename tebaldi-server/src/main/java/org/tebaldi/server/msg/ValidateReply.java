package org.tebaldi.server.msg;

import org.tebaldi.core.cc.TxnDep;
import org.tebaldi.core.runtime.cost.CostUnits;

/**
 * DS → TC: the DS's vote after running every level's DS validation, with dependencies not yet reported and DS-part
 * reports (null if none). With durability, {@code epoch} is the GCP epoch this server stamped its precommit log
 * with (its current epoch when it voted; dissertation §4.5.4), else 0.
 */
public record ValidateReply(long txnId, boolean ok, String reason, boolean retryable, TxnDep[] deps,
                            LevelReport[] reports, long epoch) implements CostUnits {
    /** Work units: the dependencies and level reports carried (each is processed at the TC). */
    @Override
    public int costUnits() {
        return (deps == null ? 0 : deps.length) + (reports == null ? 0 : reports.length);
    }

    /** A vote without durability (epoch 0). */
    public ValidateReply(long txnId, boolean ok, String reason, boolean retryable, TxnDep[] deps,
                         LevelReport[] reports) {
        this(txnId, ok, reason, retryable, deps, reports, 0);
    }
}
