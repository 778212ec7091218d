package org.tebaldi.server.msg;

import org.tebaldi.core.cc.TxnDep;

/** DS → TC: the DS's vote after running every level's DS validation, with dependencies not yet reported
 * and DS-part reports (null if none). */
public record ValidateReply(long txnId, boolean ok, String reason, boolean retryable, TxnDep[] deps,
                            LevelReport[] reports) {
}
