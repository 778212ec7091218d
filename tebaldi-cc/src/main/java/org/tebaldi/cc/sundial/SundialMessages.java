package org.tebaldi.cc.sundial;

import org.tebaldi.core.cc.CcReport;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * Sundial's payloads (Sundial §3.3, §4): the commit timestamp, what a data server reports on the coordinator's
 * commit timestamp and cache, the lease renewal of a read the coordinator served from its cache, and the fence of
 * a GC confirmation with the cache on. A table lease
 * of {@code -1, -1} means "none" (table-level leases off).
 */
final class SundialMessages {
    private SundialMessages() {
    }

    /** The transaction's commit timestamp, with its commit (logical time). */
    record CommitTs(long ts) {
    }

    /**
     * With the prepare (validation) requests: the commit timestamp and the renewals the participants must make of
     * reads the coordinator served from its cache, each addressed to one data server ({@code renewals} may be
     * empty).
     */
    record Prepare(long ts, Renewal[] renewals) {
    }

    /** A read served from the cache whose lease data server {@code ds} must renew to the commit timestamp. */
    record Renewal(int ds, Key key, long writer, int writeSeq) {
    }

    /** A lower bound on the commit timestamp: the {@code wts} of a version read, or {@code rts + 1} of one locked. */
    record Bound(long ts) implements CcReport {
    }

    /**
     * A read of a committed version with its lease ({@code rts} already raised by the table lease), for the
     * coordinator's cache (caching on): the row ({@code null}: a delete), the version's writer and write sequence
     * number, and the table's lease at this data server (Sundial §4.3).
     */
    record ReadLease(Key key, Row row, long writer, int writeSeq, long wts, long rts, long tabWts, long tabRts)
            implements CcReport {
    }

    /**
     * A write under the transaction's lock (caching on): the row it leaves (null: a delete) and the transaction's write
     * sequence number on the key, the version the lock found latest ({@code lockedWriter < 0}: none) and the bound
     * it sets ({@code rts + 1}).
     */
    record Wrote(Key key, Row row, int writeSeq, long lockedWriter, int lockedSeq, long bound) implements CcReport {
    }

    /**
     * Coordinator to data server: renew the lease of the version of {@code key} written by {@code writer} (its
     * {@code writeSeq}-th write), which transaction {@code txnId} read from the coordinator's cache, to
     * {@code cts} (Sundial Alg. 2, {@code renew_lease}).
     */
    record Renew(long txnId, Key key, long writer, int writeSeq, long cts) {
    }

    /**
     * The answer to {@link Renew} (a message) or to a {@link Renewal} of a prepare (a report with the vote): whether the
     * lease covers {@code cts} now, why not, the version's lease end ({@code rts}, table lease included) and the
     * table's lease.
     */
    record Renewed(long txnId, Key key, long writer, int writeSeq, boolean ok, String why, long rts, long tabWts,
                   long tabRts) implements CcReport {
    }

    /** A version a GC epoch is about to settle at a data server, which overwrote an older committed one. */
    record Settled(Key key, long writer, int writeSeq, long wts) {
    }

    /**
     * Data server to coordinator, with the cache on (GC confirmation, docs/mechanisms.md "TicToc and Sundial"):
     * drop every cached version older than one of {@code versions} — every cached version of this server's keys if
     * {@code wholeServer} (the epoch holds versions this part did not see written) — and answer with {@link
     * Fenced} once the reads the cache served before are handed over to the history check.
     */
    record Fence(long id, Settled[] versions, boolean wholeServer) {
        @Override
        public String toString() {
            return "Fence[id=" + id + ", versions=" + java.util.Arrays.toString(versions) + ", wholeServer="
                    + wholeServer + "]";
        }
    }

    /** The answer to {@link Fence} {@code id}: this coordinator's cache serves none of the older versions any more. */
    record Fenced(long id) {
    }
}
