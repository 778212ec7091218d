package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the {@link IncrementalChecker} holds of one key (docs/architecture.md, "Verification"): the newest final
 * version's writer and write sequence number, the readers of that version (each gets an rw edge to the next
 * final version) and the reads of versions not final yet, by writer. Not thread-safe.
 */
final class HeldKey {
    /** Tail id of a key whose newest final version is not known here: T0's or that of a dropped writer. */
    static final long UNKNOWN_TAIL = -1L;

    /** A read of a version not yet final: checked against the version's write sequence number once final. */
    record PendingRead(HeldTxn reader, int writeSeq) {
    }

    /** Id of the newest final version's writer ({@link #UNKNOWN_TAIL} if not known). */
    long tailId;
    /** That writer, {@link HeldTxn#T0}, or {@link HeldTxn#GONE} once dropped or if not known. */
    HeldTxn tail;
    /** The write sequence number of the newest final version. */
    int tailSeq;
    List<HeldTxn> tailReaders = new ArrayList<>();
    /** Reads of versions not final yet, by writer id; null if none. */
    Map<Long, List<PendingRead>> pending;

    HeldKey(long tailId, HeldTxn tail) {
        this.tailId = tailId;
        this.tail = tail;
    }

    /**
     * After a pass dropped transactions: forgets dropped readers and writer; returns whether nothing of the key is
     * needed any more (its newest final writer is gone, no held transaction read it or a version not final).
     */
    boolean sweep() {
        tailReaders.removeIf(r -> r.dropped);
        if (tail.dropped) {
            tail = HeldTxn.GONE;
        }
        if (pending != null && pending.isEmpty()) {
            pending = null;
        }
        return (tail == HeldTxn.GONE || tail == HeldTxn.T0) && tailReaders.isEmpty() && pending == null;
    }
}
