package org.tebaldi.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The sweep's progress bar and estimated time left, on a hand-driven clock. */
class SweepProgressTest {
    private static final long S = 1_000_000_000L;
    private long now = 1_000 * S;

    @Test
    void estimatesFromPlannedTimesAndLearntOverhead() {
        SweepProgress p = new SweepProgress(List.of(10_000_000L, 10_000_000L, 20_000_000L), () -> now);
        assertEquals(40 * S, p.etaNanos(0));
        p.pointStarted(0);
        now += 4 * S; // loading: 4 s outside the run so far, taken as the overhead guess for every point
        assertEquals((10 + 4 - 4) * S + (10 + 4) * S + (20 + 4) * S, p.etaNanos(0));
        now += 5 * S; // 5 s into the run
        assertEquals((14 - 9) * S + 14 * S + 24 * S, p.etaNanos(5));
        now += 7 * S; // run done after 10 s, then 2 s of checks: 6 s overhead in all
        p.pointFinished();
        assertEquals(16 * S, p.elapsedNanos());
        assertEquals((10 + 6) * S + (20 + 6) * S, p.etaNanos(0));
        assertEquals("[######..............]  28% ETA 42s", p.bar(0));
        p.pointStarted(1);
        now += 16 * S;
        p.pointFinished();
        p.pointStarted(2);
        now += 26 * S;
        p.pointFinished();
        assertEquals(0, p.etaNanos(0));
        assertEquals("[####################] 100% ETA 0s", p.bar(0));
        assertThrows(IllegalStateException.class, p::pointFinished);
    }

    @Test
    void durationsForPeople() {
        assertEquals("0s", SweepProgress.duration(0));
        assertEquals("1s", SweepProgress.duration(1));
        assertEquals("59s", SweepProgress.duration(59 * S));
        assertEquals("4m10s", SweepProgress.duration(250 * S));
        assertEquals("1h02m", SweepProgress.duration(3661 * S));
    }
}
