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
 *
 * <p>Placeholders allocate nothing: they are immutable markers shared by all runs, numbered within one batch of
 * one run; what a number means (which result, which derivation) is kept by that run's {@link Batch}, which
 * replaces every placeholder it stored before the run goes on. Package-private.
 */
final class Pending {
    /** Thrown (preallocated, no stack trace) by an expression that needs a pending value. */
    static final RuntimeException FLUSH = new RuntimeException("pending value needed", null, false, false) {
    };

    /** Derived placeholders numbered below this are preallocated; later ones are made on demand. */
    private static final int SHARED_DERIVED = 4096;
    private static final Placeholder[] RESULTS = new Placeholder[ProcRun.MAX_BATCH];
    private static final Placeholder[] DERIVED = new Placeholder[SHARED_DERIVED];

    static {
        for (int i = 0; i < RESULTS.length; i++) {
            RESULTS[i] = new Placeholder(i, false);
        }
        for (int i = 0; i < DERIVED.length; i++) {
            DERIVED[i] = new Placeholder(i, true);
        }
    }

    private Pending() {
    }

    /**
     * A value in flight: the result row of the batch's operation {@code id}, or (when {@code derived}) the
     * {@code id}-th derived value of the batch ({@link Batch#derive}).
     */
    static final class Placeholder {
        final int id;
        final boolean derived;

        private Placeholder(int id, boolean derived) {
            this.id = id;
            this.derived = derived;
        }

        @Override
        public String toString() {
            return derived ? "<pending value #" + id + ">" : "<pending read #" + id + ">";
        }
    }

    /** The placeholder of the result of the batch's operation {@code index} (below {@link ProcRun#MAX_BATCH}). */
    static Placeholder result(int index) {
        return RESULTS[index];
    }

    /** The placeholder of the batch's {@code n}-th derived value. */
    static Placeholder derived(int n) {
        return n < SHARED_DERIVED ? DERIVED[n] : new Placeholder(n, true);
    }

    /**
     * How a {@code let} or {@code setElem} derives a value from a row in flight: {@code value} evaluated with local
     * {@code slot} (the only local it reads) set to the row; statement {@code stmt} ({@code label}) names it in
     * the error if that fails.
     */
    record Derivation(Ev value, int slot, int stmt, String label) {
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
