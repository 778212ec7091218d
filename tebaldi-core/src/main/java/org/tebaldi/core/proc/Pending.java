package org.tebaldi.core.proc;

/**
 * Batched execution (see {@link ProcRun#resume}): a read whose result has not arrived leaves a {@link Placeholder}
 * in its local. Instructions that only store a value ({@code let}, {@code setElem}) may move a placeholder into
 * another local or an array, or store a value computed from one row local that is a placeholder — as a derived
 * placeholder, computed when the row arrives (e.g. runtime pipelining's scalar expansion of a row read in one step
 * and used in a later one). Any other use of a placeholder throws {@link #FLUSH}: the run hands the batch to the
 * coordinator and re-executes that instruction once the results are in; instructions evaluate all their expressions
 * before any side effect, so re-executing one is safe. When the results arrive, a derived value whose computation
 * fails (a field of an absent row) fails the run — unless a deferred abort the one-at-a-time run would have met
 * first ends it — exactly as the one-at-a-time run would have failed at the instruction that computed it.
 * Package-private.
 */
final class Pending {
    /** Thrown (preallocated, no stack trace) by an expression that needs a pending value. */
    static final RuntimeException FLUSH = new RuntimeException("pending value needed", null, false, false) {
    };

    private Pending() {
    }

    /**
     * The result of the batch's operation {@code index}, or — with {@code derive} — the value of {@code derive}
     * evaluated with local {@code slot} set to that result, computed by instruction {@code at}, the run's
     * {@code seq}-th executed instruction (for errors, in the one-at-a-time run's order).
     */
    record Placeholder(int index, Ev derive, int slot, long seq, Insn at) {
        @Override
        public String toString() {
            return "<pending read #" + index + ">";
        }
    }

    /** {@code v} for use by an expression: throws FLUSH for a placeholder. */
    static Object need(Object v) {
        if (v instanceof Placeholder) {
            throw FLUSH;
        }
        return v;
    }

    /** Whether {@code v} is or holds (in an array, at any depth) a placeholder. */
    static boolean holds(Object v) {
        if (v instanceof Placeholder) {
            return true;
        }
        if (v instanceof Object[] a) {
            for (Object x : a) {
                if (holds(x)) {
                    return true;
                }
            }
        }
        return false;
    }
}
