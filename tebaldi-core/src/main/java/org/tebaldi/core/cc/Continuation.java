package org.tebaldi.core.cc;

import org.tebaldi.core.txn.AbortReason;

/**
 * The rest of a phase pass after one CC part (docs/architecture.md, "Waiting": a waiting transaction is a parked continuation).
 * A part calls exactly one of the methods exactly once, either right away or later from a timer or another
 * transaction's event (then the framework resumes it after the current event, never re-entrantly).
 */
public interface Continuation {
    /** Go on with the next part of the pass. */
    void proceed();

    /** Abort the transaction. */
    void abort(AbortReason reason);
}
