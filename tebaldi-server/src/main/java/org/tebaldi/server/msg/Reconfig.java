package org.tebaldi.server.msg;

import org.tebaldi.core.tree.CcTree;

/**
 * Messages of the partial restart reconfiguration protocol (dissertation §5.5.1): clean-up, prepare, apply.
 * {@code epoch} numbers one reconfiguration.
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
}
