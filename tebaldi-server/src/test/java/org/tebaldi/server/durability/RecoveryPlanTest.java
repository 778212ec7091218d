package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tebaldi.server.durability.RecoveryPlan.Rule;
import org.tebaldi.server.durability.RecoveryPlan.Seen;

/** Each recovery rule of step 2 (dissertation §4.5.4) on hand-made logs of two data servers. */
class RecoveryPlanTest {
    private static Seen pre(long txn, int participants, long epoch, long commit) {
        return new Seen(txn, true, true, participants, epoch, commit, false);
    }

    @Test
    void aTransactionWithAllPrecommitLogsAndACommitInAPersistedEpochSurvives() {
        var d = RecoveryPlan.decide(new long[] {5, 6}, 6, List.of(List.of(pre(1, 2, 4, 5)), List.of(pre(1, 2, 5, 5))));
        assertEquals(Set.of(1L), d.keep());
        assertEquals(5, d.persisted(), "the cut is the smallest persisted epoch");
        assertEquals(7, d.epochBase(), "new epochs start above every epoch the logs mention");
    }

    @Test
    void fewerPrecommitLogsThanParticipantsDrops() {
        var d = RecoveryPlan.decide(new long[] {9, 9}, 9, List.of(List.of(pre(1, 2, 3, 3)), List.of()));
        assertEquals(Rule.INCOMPLETE, d.dropped().get(1L));
        assertTrue(d.keep().isEmpty());
        // a read-only participant logs no operations and does not count
        var ro = RecoveryPlan.decide(new long[] {9, 9}, 9, List.of(List.of(pre(2, 1, 3, 3)),
                List.of(new Seen(2, true, false, 0, 3, 3, false))));
        assertEquals(Set.of(2L), ro.keep());
    }

    @Test
    void aGlobalEpochAboveTheLastPersistedEpochDrops() {
        // persisted 5 at ds0 but only 4 at ds1: a transaction of epoch 5 is dropped even though both logs survived
        var d = RecoveryPlan.decide(new long[] {5, 4}, 5, List.of(List.of(pre(1, 2, 5, 5), pre(2, 1, 3, 5)),
                List.of(pre(1, 2, 4, 5))));
        assertEquals(Rule.LATE_EPOCH, d.dropped().get(1L));
        assertEquals(Rule.LATE_EPOCH, d.dropped().get(2L), "the commit's global epoch counts, not the precommit's");
        // without a commit record the largest precommit epoch counts
        var u = RecoveryPlan.decide(new long[] {5, 4}, 5, List.of(List.of(pre(3, 1, 5, -1)), List.of()));
        assertEquals(Rule.LATE_EPOCH, u.dropped().get(3L));
    }

    @Test
    void anAbortedOrUndecidedTransactionDrops() {
        var d = RecoveryPlan.decide(new long[] {9, 9}, 9, List.of(
                List.of(pre(1, 2, 3, -1), pre(2, 1, 3, -1)),
                List.of(new Seen(1, true, true, 2, 3, -1, true))));
        assertEquals(Rule.NOT_COMMITTED, d.dropped().get(1L), "its coordinator aborted it after the precommits");
        assertEquals(Rule.NOT_COMMITTED, d.dropped().get(2L), "no commit record anywhere");
        assertEquals(2, RecoveryPlan.counts(d).get(Rule.NOT_COMMITTED));
    }
}
