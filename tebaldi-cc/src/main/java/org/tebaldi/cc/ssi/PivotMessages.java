package org.tebaldi.cc.ssi;

/** Messages between SSI TC parts and the {@link BatchManager}. */
final class PivotMessages {
    private PivotMessages() {
    }

    /**
     * Validation of a member of batch {@code batch} that will commit at {@code cts}: apply the anti-dependency
     * edges the member's operations found ({@code edges} holds pairs: from-batch, to-batch, ...) and say whether it
     * may commit.
     */
    record Check(long reqId, long batch, long cts, long[] edges) {
    }

    /** The verdict; {@code reason} says which batch is a pivot when {@code abort}. */
    record Verdict(long reqId, boolean abort, String reason) {
    }
}
