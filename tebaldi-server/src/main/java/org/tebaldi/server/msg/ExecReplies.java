package org.tebaldi.server.msg;

import org.tebaldi.core.runtime.cost.CostUnits;

/**
 * DS → TC: the replies to an {@link ExecBatch}, in order — every operation's, or those up to and including the
 * first that failed (the rest did not run).
 */
public record ExecReplies(ExecReply[] replies) implements CostUnits {
    /** Work units: the replies carried. */
    @Override
    public int costUnits() {
        return replies.length;
    }
}
