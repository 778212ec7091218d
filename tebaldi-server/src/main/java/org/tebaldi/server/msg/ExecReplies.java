package org.tebaldi.server.msg;

/**
 * DS → TC: the replies to an {@link ExecBatch}, in order — every operation's, or those up to and including the
 * first that failed (the rest did not run).
 */
public record ExecReplies(ExecReply[] replies) {
}
