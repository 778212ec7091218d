package org.tebaldi.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.ProcStep;

/**
 * The interpreter benchmark's runs do the work of the transaction: every form and mode ends with Done and the
 * procedure's outputs and issues the operations of the transaction; the store stops growing once every request has
 * run (the fixture puts back the district or customer row that would otherwise make keys or values grow); the rp
 * form really is the rewritten body; batched and one-at-a-time runs, and both forms, leave the same rows.
 */
class ProcFixtureTest {
    private static final int RUNS = 50;

    @Test
    void everyFormAndModeRunsToDone() {
        for (String txn : ProcFixture.TXNS) {
            for (String form : ProcFixture.FORMS) {
                for (boolean batched : new boolean[] {true, false}) {
                    ProcFixture f = new ProcFixture(txn, form, batched);
                    String what = txn + "/" + form + (batched ? "/batched" : "/single");
                    for (int i = 0; i < RUNS; i++) {
                        ProcStep.Done d = assertInstanceOf(ProcStep.Done.class, f.run(), what);
                        assertTrue(d.outputs().containsKey(txn.equals("new_order") ? "o_id" : "c_balance"), what);
                    }
                    // new_order: warehouse, district, customer, 3 inserts and 5 to 15 lines of 3; payment: 4
                    long minOps = txn.equals("new_order") ? RUNS * 21L : RUNS * 4L;
                    assertTrue(f.applied() >= minOps, what + ": " + f.applied() + " operations");
                }
            }
        }
    }

    /** Once every request has run, running them again overwrites rows and adds none. */
    @Test
    void theStoreStopsGrowingAfterOnePassOverTheRequests() {
        for (String txn : ProcFixture.TXNS) {
            ProcFixture f = new ProcFixture(txn, "rp", true);
            int loaded = f.rows().size();
            for (int i = 0; i < ProcFixture.REQUESTS; i++) {
                f.run();
            }
            int afterOnePass = f.rows().size();
            assertTrue(afterOnePass > loaded, txn + " wrote no new row");
            for (int i = 0; i < RUNS; i++) {
                f.run();
            }
            assertEquals(afterOnePass, f.rows().size(), txn);
        }
    }

    @Test
    void batchedAndOneAtATimeRunsLeaveTheSameRows() {
        for (String txn : ProcFixture.TXNS) {
            ProcFixture a = new ProcFixture(txn, "rp", true);
            ProcFixture b = new ProcFixture(txn, "rp", false);
            ProcFixture c = new ProcFixture(txn, "plain", true);
            for (int i = 0; i < RUNS; i++) {
                assertEquals(a.run(), b.run(), txn);
                c.run();
                assertEquals(a.rows().size(), c.rows().size());
            }
            assertEquals(dump(a.rows()), dump(b.rows()), txn);
            assertEquals(dump(a.rows()), dump(c.rows()), txn + ": the rewrite and the workload's procedure do the same");
        }
    }

    /** Rows by key, as text (each fixture has its own schema objects, and rows compare their tables by identity). */
    private static Map<String, String> dump(Map<Key, Row> rows) {
        Map<String, String> out = new HashMap<>();
        rows.forEach((k, v) -> out.put(k.toString(), v.toString()));
        return out;
    }

    @Test
    void theRpFormIsTheRewrite() {
        assertNotEquals(new ProcFixture("new_order", "plain", true).procedure().body(),
                new ProcFixture("new_order", "rp", true).procedure().body());
        assertThrows(IllegalArgumentException.class, () -> new ProcFixture("delivery", "rp", true));
    }
}
