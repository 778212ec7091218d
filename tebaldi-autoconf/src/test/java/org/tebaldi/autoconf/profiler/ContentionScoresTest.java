package org.tebaldi.autoconf.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The analysis stage's nested-wait attribution (dissertation §5.3.2, Fig 5.6). */
class ContentionScoresTest {
    private static final int T1 = 1;
    private static final int T2 = 2;
    private static final int T3 = 3;
    private static final long MS = 1000;

    @Test
    void figure56() {
        // t2 blocks t1 twice: 4 ms, then 8 ms during which t2 itself waits 7 ms for t3 (6 ms of them overlapping)
        List<BlockingEvent> events = List.of(
                new BlockingEvent(1, T1, 2, T2, 0, 4 * MS),
                new BlockingEvent(1, T1, 2, T2, 10 * MS, 18 * MS),
                new BlockingEvent(2, T2, 3, T3, 12 * MS, 19 * MS));
        ContentionScores s = ContentionScores.of(events);
        assertEquals(6 * MS, s.score(T2, T1), "score(<T2,T1>) = 4 + 2 ms");
        assertEquals(13 * MS, s.score(T3, T2), "score(<T3,T2>) = 7 ms direct + 6 ms nested");
        assertEquals(ConflictEdge.of(T2, T3), s.bottleneck());
        assertEquals(13 * MS, s.edges().get(ConflictEdge.of(T3, T2)));
    }

    @Test
    void deepNestingIsChargedToTheInnermostRunningBlocker() {
        // a waits b [0,10]; b waits c [2,8]; c waits d [4,6]
        List<BlockingEvent> events = List.of(
                new BlockingEvent(10, 1, 11, 2, 0, 10 * MS),
                new BlockingEvent(11, 2, 12, 3, 2 * MS, 8 * MS),
                new BlockingEvent(12, 3, 13, 4, 4 * MS, 6 * MS));
        ContentionScores s = ContentionScores.of(events);
        assertEquals(4 * MS, s.score(2, 1), "b ran 4 of a's 10 ms");
        assertEquals(4 * MS + 4 * MS, s.score(3, 2), "c ran 4 of b's 6 ms direct wait, and 4 of the nested 6 ms");
        assertEquals(3 * 2 * MS, s.score(4, 3), "d's 2 ms, counted for c's own wait and the two nestings above");
    }

    @Test
    void deadlockCyclesStop() {
        // a waits b, b waits a, overlapping
        List<BlockingEvent> events = List.of(
                new BlockingEvent(1, 1, 2, 2, 0, 10 * MS),
                new BlockingEvent(2, 2, 1, 1, 0, 10 * MS));
        ContentionScores s = ContentionScores.of(events);
        assertEquals(20 * MS, s.edges().get(ConflictEdge.of(1, 2)));
    }

    @Test
    void sameTypeContentionIsASelfEdge() {
        ContentionScores s = ContentionScores.of(List.of(new BlockingEvent(1, 5, 2, 5, 0, 3 * MS)));
        assertEquals(ConflictEdge.of(5, 5), s.bottleneck());
        assertEquals(true, s.bottleneck().selfEdge());
        assertNull(ContentionScores.of(List.of()).bottleneck());
    }
}
