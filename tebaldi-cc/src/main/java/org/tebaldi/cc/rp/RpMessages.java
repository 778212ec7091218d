package org.tebaldi.cc.rp;

/** Messages of runtime pipelining beyond the phase requests (dissertation §4.4.2, §4.5.1: TC-to-TC step waits). */
final class RpMessages {
    private RpMessages() {
    }

    /** Shipped with every request: the step the transaction is in (the DS releases the locks of earlier steps). */
    record Meta(int step) {
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
}
