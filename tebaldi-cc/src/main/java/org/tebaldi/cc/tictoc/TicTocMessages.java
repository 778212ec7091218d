package org.tebaldi.cc.tictoc;

import org.tebaldi.core.cc.CcReport;

/** TicToc's payloads: the commit timestamp the coordinator computed, and the bounds a data server reports on it. */
final class TicTocMessages {
    private TicTocMessages() {
    }

    /**
     * The transaction's commit timestamp, shipped with its validation requests and its commit (logical time; TicToc
     * §3.2).
     */
    record CommitTs(long ts) {
    }

    /**
     * A lower bound on the commit timestamp from one operation at a data server: the {@code wts} of a version read,
     * or the {@code rts + 1} of the version a write will follow.
     */
    record Bound(long ts) implements CcReport {
    }
}
