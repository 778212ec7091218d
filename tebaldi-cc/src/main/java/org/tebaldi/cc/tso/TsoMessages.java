package org.tebaldi.cc.tso;

import org.tebaldi.core.model.Key;

/** Messages of TSO beyond the phase requests: promises from the TC to data servers (dissertation §4.4.4). */
final class TsoMessages {
    private TsoMessages() {
    }

    /** Per-transaction timestamp (leaf) or batch timestamp (inner node), shipped with every request. */
    record Meta(long ts) {
    }

    /** Transaction {@code txnId} with timestamp {@code ts} promises to write {@code keys} (held by the receiver). */
    record Promise(long txnId, long ts, Key[] keys) {
    }

    /** Transaction {@code txnId} ended: its unfulfilled promises lapse. */
    record PromiseDone(long txnId) {
    }

    /**
     * DST ({@code timestamps: dst}): a data server refused a transaction because a timestamp {@code ts} lies above
     * its own (a later reader, or the server's floor); the coordinator's hybrid clock moves past it, so the retry
     * starts above it (DST's "clocks advanced by the timestamps seen on conflicts").
     */
    record Seen(long ts) {
    }
}
