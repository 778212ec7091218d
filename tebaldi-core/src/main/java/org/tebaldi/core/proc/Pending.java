package org.tebaldi.core.proc;

/**
 * Batched execution (see {@link ProcRun#resume}): a local assigned by a read that was issued but whose result has
 * not arrived holds {@link #VALUE}; an expression that reads it throws {@link #FLUSH}, and the run then hands the
 * batch to the coordinator and re-executes that instruction once the results are in. Instructions evaluate all
 * their expressions before any side effect, so re-executing one is safe. Package-private.
 */
final class Pending {
    /** The placeholder value of a local whose read is in flight. */
    static final Object VALUE = new Object() {
        @Override
        public String toString() {
            return "<pending read>";
        }
    };

    /** Thrown (preallocated, no stack trace) by an expression that needs a pending value. */
    static final RuntimeException FLUSH = new RuntimeException("pending value needed", null, false, false) {
    };

    private Pending() {
    }
}
