package org.tebaldi.server.msg;

import org.tebaldi.core.cc.TxnDep;

/**
 * DS → TC: the DS's vote after running every level's DS validation, with dependencies not yet reported and DS-part
 * reports (null if none). With durability, {@code epoch} is the GCP epoch this server stamped its precommit log
 * with (its current epoch when it voted; dissertation §4.5.4), else 0.
 */
public record ValidateReply(long txnId, boolean ok, String reason, boolean retryable, TxnDep[] deps,
                            LevelReport[] reports, long epoch) {
    /** A vote without durability (epoch 0). */
    public ValidateReply(long txnId, boolean ok, String reason, boolean retryable, TxnDep[] deps,
                         LevelReport[] reports) {
        this(txnId, ok, reason, retryable, deps, reports, 0);
    }
}
