package org.tebaldi.cc.rp;

/** Messages of runtime pipelining beyond the phase requests (dissertation §4.4.2, §4.5.1: TC-to-TC step waits). */
final class RpMessages {
    private RpMessages() {
    }

    /**
     * Shipped with every request: the step the transaction entered and the last step it finished (released); the DS
     * releases its step locks up to that one ({@link StepRule}: under {@code paper} every step below the one entered,
     * and every step once its execution ended; under {@code strict} the skipped steps are not finished).
     */
    record Meta(int step, int released) {
    }

    /** TC → DS: release the transaction's step locks up to and including {@code upTo}. */
    record Release(long txnId, int upTo) {
    }

    /** TC → TC: tell me when {@code txnId} has entered step {@code entered} and released step {@code released}. */
    record Watch(long reqId, long txnId, int entered, int released) {
    }

    /**
     * TC → TC: progress of {@code txnId}: the step it entered and the last step it released; {@code done} when it
     * committed or aborted.
     */
    record Progress(long reqId, long txnId, int entered, int released, boolean done) {
    }

    /**
     * DS → TC, with a reply (a {@link org.tebaldi.core.cc.CcReport}): how far dependency {@code txnId} of the replying
     * transaction got as this data server knows it — the last step it released here (a lower bound of its progress:
     * its coordinator told this server) or {@code done} once it committed or aborted here — so the coordinator waits
     * with a message only for a dependency not known to be far enough.
     */
    record Known(long txnId, int released, boolean done) implements org.tebaldi.core.cc.CcReport {
    }
}
