package org.tebaldi.core.proc.analysis;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.ProcedureException;

/**
 * Random procedures, random step functions, random stores and inputs: whenever the reorderer accepts a
 * procedure, the reordered one must end the same way (done with the same outputs, or the same user abort) with
 * the same final store, and issue its accesses in non-decreasing step order.
 */
class ReordererRandomTest {
    private final Catalog cat = Schema.abcd();

    @Test
    void reorderedProceduresAreEquivalentOnRandomInputs() {
        run(new Random(20240611L), false);
    }

    @Test
    void statementsGuardedByAnAbortIfNeverFailBeforeTheAbort() {
        run(new Random(7L), true);
    }

    private void run(Random rnd, boolean guards) {
        RandomPrograms gen = new RandomPrograms(rnd, cat, guards);
        int accepted = 0;
        int rejected = 0;
        int split = 0;
        for (int i = 0; i < 2000; i++) {
            Procedure p = gen.next("p" + i);
            Map<String, Integer> steps = randomSteps(rnd);
            Procedure q;
            try {
                q = Reorderer.reorder(p, Schema.steps(steps));
            } catch (ProcedureException e) {
                assertTrue(e.getMessage().startsWith(p.name() + ": "), e.getMessage());
                rejected++;
                continue;
            }
            accepted++;
            if (q.body().toString().contains("$")) {
                split++;
            }
            for (int run = 0; run < 25; run++) {
                TestStore.Outcome o = Equivalence.check(p, q, Schema.steps(steps), gen.store(), gen.inputs());
                assertNotEquals("ERROR", o.kind(), "the generator makes error-free procedures: " + o.message());
            }
        }
        assertTrue(accepted > 900, "accepted " + accepted + ", rejected " + rejected);
        assertTrue(split > 400, "only " + split + " reorderings needed temps or expansion");
    }

    /** A random step per table a..d (sometimes shared), r in no step. */
    static Map<String, Integer> randomSteps(Random rnd) {
        List<String> ts = new ArrayList<>(List.of("a", "b", "c", "d"));
        Collections.shuffle(ts, rnd);
        Map<String, Integer> m = new HashMap<>();
        int step = 0;
        for (String t : ts) {
            m.put(t, step);
            if (rnd.nextInt(4) > 0) {
                step++;
            }
        }
        return m;
    }
}
