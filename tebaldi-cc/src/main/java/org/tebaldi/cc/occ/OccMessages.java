package org.tebaldi.cc.occ;

import org.tebaldi.core.cc.CcReport;

/** What OCC's parts send beyond the phase requests (Silo's commit spread over coordinator and data servers). */
final class OccMessages {
    private OccMessages() {
    }

    /** TC → DS: lock transaction {@code txnId}'s write set here (the first round of a multi-server validation). */
    record Lock(long txnId) {
    }

    /** DS → TC: the write set of {@code txnId} is locked here ({@code failure} null) or why not. */
    record Locked(long txnId, String failure) {
    }

    /** DS → TC with the validation vote: the largest TID among the records the transaction read or overwrote here. */
    record MaxTid(long tid) implements CcReport {
    }

    /** TC → DS with the commit: the transaction's TID, stamped on the versions it wrote. */
    record CommitTid(long tid) {
    }
}
