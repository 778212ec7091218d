package org.tebaldi.core.cc;

import org.tebaldi.core.model.Row;

/**
 * A read a TC part answered at the coordinator ({@link ServesReads#serveRead}), e.g. from a cache of remote reads
 * (Yu et al. VLDB 2018 §4): the row (null if the row is absent) and the version it belongs to — its writer and that writer's
 * write sequence number on the key ({@link org.tebaldi.core.storage.Version#writeSeq()}) — which the coordinator
 * records in the history as a data server records its reads.
 */
public record LocalRead(Row row, long writer, int writeSeq) {
    /** @throws IllegalArgumentException if {@code writeSeq < 1} */
    public LocalRead {
        if (writeSeq < 1) {
            throw new IllegalArgumentException("write sequence " + writeSeq + " < 1");
        }
    }
}
