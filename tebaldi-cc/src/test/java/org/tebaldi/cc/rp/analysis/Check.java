package org.tebaldi.cc.rp.analysis;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.function.ToIntFunction;
import org.tebaldi.core.proc.Procedure;

/** Side-by-side runs of an original and a reordered procedure (as in tebaldi-core's analysis tests). */
final class Check {
    private Check() {
    }

    /**
     * Fails unless both runs end the same way with the same final store (a run-time error of the original may be a
     * user abort of the reordered run, the reorderer's documented tolerance) and every step function in
     * {@code steps} sees the reordered run's accesses in non-decreasing order.
     *
     * @return the original's outcome kind (DONE, ABORT or ERROR)
     */
    @SafeVarargs
    static String equivalent(Procedure p, Procedure q, TestStore store, Object[] inputs, ToIntFunction<String>... steps) {
        TestStore s1 = store.copy();
        TestStore s2 = store.copy();
        TestStore.Outcome o1 = s1.run(p, inputs.clone());
        TestStore.Outcome o2 = s2.run(q, inputs.clone());
        boolean errorThenAbort = o1.kind().equals("ERROR") && o2.kind().equals("ABORT") && o1.rows().equals(o2.rows());
        if (!o1.sameAs(o2) && !errorThenAbort) {
            fail(p.name() + " not equivalent on inputs " + Arrays.deepToString(inputs) + "\noriginal: " + o1
                    + "\nreordered: " + o2 + "\nreordered body: " + q.body());
        }
        for (ToIntFunction<String> step : steps) {
            int last = -1;
            for (String t : s2.tables()) {
                int s = step.applyAsInt(t);
                if (s >= 0 && s < last) {
                    fail(p.name() + ": accesses out of step order: " + s2.tables() + "\nbody: " + q.body());
                }
                last = Math.max(last, s);
            }
        }
        return o1.kind();
    }
}
