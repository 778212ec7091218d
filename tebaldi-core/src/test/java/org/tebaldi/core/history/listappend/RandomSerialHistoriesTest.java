package org.tebaldi.core.history.listappend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random serial executions are valid for every seed (committed, aborted and unknown-outcome transactions, reads of
 * own appends, final reads), and the same histories with one observed list corrupted are not.
 */
class RandomSerialHistoriesTest {
    private static final int SEEDS = 300;

    /** A serial execution of 40 transactions over 4 keys; transactions listed in shuffled order. */
    static ListAppendHistory serial(long seed) {
        Random rnd = new Random(seed);
        Map<String, List<Long>> state = new HashMap<>();
        List<ObservedTxn> txns = new ArrayList<>();
        long value = 0;
        for (int id = 1; id <= 40; id++) {
            int o = rnd.nextInt(10);
            Outcome outcome = o < 7 ? Outcome.COMMITTED : o < 9 ? Outcome.ABORTED : Outcome.UNKNOWN;
            boolean applied = outcome == Outcome.COMMITTED || outcome == Outcome.UNKNOWN && rnd.nextBoolean();
            Map<String, List<Long>> local = new HashMap<>();
            state.forEach((k, v) -> local.put(k, new ArrayList<>(v)));
            List<MicroOp> ops = new ArrayList<>();
            for (int i = 1 + rnd.nextInt(5); i > 0; i--) {
                String key = "k" + rnd.nextInt(4);
                List<Long> l = local.computeIfAbsent(key, k -> new ArrayList<>());
                if (rnd.nextBoolean()) {
                    l.add(++value);
                    ops.add(MicroOp.append(key, value));
                } else {
                    ops.add(MicroOp.read(key, l));
                }
            }
            if (applied) {
                state = local;
            }
            txns.add(new ObservedTxn(id, outcome, ops));
        }
        Collections.shuffle(txns, rnd);
        return new ListAppendHistory(txns, state);
    }

    @Test
    void everySerialExecutionIsValid() {
        for (long seed = 1; seed <= SEEDS; seed++) {
            Result r = ListAppendChecker.check(serial(seed));
            long s = seed;
            assertTrue(r.valid(), () -> "seed " + s + ":\n" + r.summary(10));
        }
    }

    @Test
    void aReadWithTwoElementsSwappedIsCaught() {
        int caught = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            ListAppendHistory h = serial(seed);
            List<ObservedTxn> txns = new ArrayList<>(h.txns());
            for (int i = 0; i < txns.size() && caught < seed; i++) {
                ObservedTxn t = txns.get(i);
                if (t.outcome() != Outcome.COMMITTED) {
                    continue;
                }
                List<MicroOp> ops = new ArrayList<>(t.ops());
                for (int j = 0; j < ops.size(); j++) {
                    MicroOp op = ops.get(j);
                    if (!op.isAppend() && op.observed().size() >= 2) {
                        List<Long> l = new ArrayList<>(op.observed());
                        Collections.swap(l, 0, 1);
                        ops.set(j, MicroOp.read(op.key(), l));
                        txns.set(i, new ObservedTxn(t.id(), t.outcome(), ops));
                        Result r = ListAppendChecker.check(new ListAppendHistory(txns, h.finalReads()));
                        assertFalse(r.valid(), "seed " + seed + ": swapped read not caught");
                        caught++;
                        break;
                    }
                }
            }
        }
        assertTrue(caught > SEEDS / 2, "only " + caught + " corrupted histories built");
    }
}
