package org.tebaldi.server.msg;

import org.tebaldi.core.tree.CcTree;

/**
 * Messages of the two reconfiguration protocols. Partial restart (dissertation §5.5.1): clean-up, prepare,
 * apply. Online update (§5.5.2, Fig 5.10): every data server installs the merged tree (new subtree beside the old,
 * which drains), then every coordinator routes new transactions to the new subtree; once a coordinator has no
 * transaction left in the old subtree it tells each data server behind its last commit there, and the old subtree's
 * CC parts are dropped everywhere (retired). {@code epoch} numbers one reconfiguration of either kind.
 */
public final class Reconfig {
    private Reconfig() {
    }

    /**
     * Server → TC: stop starting transactions (queue them), let the running ones finish; after
     * {@code forceAbortMicros} µs (0: never) abort those still running.
     */
    public record Cleanup(long epoch, long forceAbortMicros) {
    }

    /** TC → every DS, behind its last commit or abort on that link: this TC has no transaction left. */
    public record Drained(long epoch) {
    }

    /**
     * DS → TC: a {@link Drained} marker of {@code epoch} is overdue (with the transaction timeout on, after one
     * timeout): the marker may have been lost with a dropped connection. A coordinator that already sent its
     * markers of {@code epoch} sends this data server {@link Drained} again (behind everything it sent there before);
     * one still draining ignores the query, its marker follows anyway.
     */
    public record DrainedQuery(long epoch) {
    }

    /** TC → server: clean-up done. */
    public record CleanupDone(long epoch, int forceAborted) {
    }

    /** Server → every TC and DS: rebuild the CC module for {@code tree} (storage untouched). */
    public record Prepare(long epoch, CcTree tree) {
    }

    /** TC/DS → server: prepared. */
    public record PrepareDone(long epoch) {
    }

    /** Server → every TC: start the queued transactions under the new tree. */
    public record Apply(long epoch) {
    }

    /** Server → every DS: install the merged tree (old subtree draining, node ids kept); answer {@link PrepareDone}. */
    public record UpdatePrepare(long epoch, CcTree tree) {
    }

    /** Server → every TC, after every DS prepared: install the merged tree and route new transactions by it. */
    public record UpdateApply(long epoch, CcTree tree) {
    }

    /** TC → server: the merged tree is installed. */
    public record Applied(long epoch) {
    }

    /**
     * Server → every TC and DS: once the subtree rooted at node {@code subtree} has no transaction left (at a DS:
     * once every coordinator's {@link Drained} marker arrived), install {@code tree}, where that subtree is retired.
     */
    public record Retire(long epoch, CcTree tree, int subtree) {
    }

    /** TC/DS → server: the old subtree is retired here. */
    public record Retired(long epoch) {
    }
}
