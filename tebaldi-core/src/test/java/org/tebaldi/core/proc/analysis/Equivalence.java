package org.tebaldi.core.proc.analysis;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.function.ToIntFunction;
import org.tebaldi.core.proc.Procedure;

/** Runs an original and a reordered procedure side by side and compares how they end and what they issue. */
final class Equivalence {
    private Equivalence() {
    }

    /**
     * Fails unless both runs end the same way (kind, outputs or abort reason, final store) and the reordered run
     * issues its accesses in non-decreasing step order. One tolerated difference (documented by the reorderer): a
     * run-time error of the original may be a user abort of the reordered run, which met an abort the
     * original had not reached yet; both roll back.
     *
     * @return the original run's outcome
     */
    static TestStore.Outcome check(Procedure p, Procedure q, ToIntFunction<String> step, TestStore store,
                                   Object[] inputs) {
        TestStore s1 = store.copy();
        TestStore s2 = store.copy();
        TestStore.Outcome o1 = s1.run(p, inputs.clone());
        TestStore.Outcome o2 = s2.run(q, inputs.clone());
        boolean errorThenAbort = o1.kind().equals("ERROR") && o2.kind().equals("ABORT") && o1.rows().equals(o2.rows());
        if (!o1.sameAs(o2) && !errorThenAbort) {
            fail("not equivalent on inputs " + Arrays.deepToString(inputs) + "\noriginal: " + o1 + "\nreordered: "
                    + o2 + "\noriginal body: " + p.body() + "\nreordered body: " + q.body());
        }
        int last = -1;
        for (String t : s2.tables()) {
            int st = step.applyAsInt(t);
            if (st >= 0) {
                if (st < last) {
                    fail("step order violated: " + s2.tables() + "\nbody: " + q.body());
                }
                last = st;
            }
        }
        return o1;
    }
}
