package org.tebaldi.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The measured window's steadiness statistic: a rising (or falling) series has a trend and is not steady, a flat
 * noisy one is steady, one that swings too much is not, too short a window is not judged; the one-second samples
 * are whole seconds of the timeline from where the window starts.
 */
class WindowCheckTest {
    private static double[] series(int n, double start, double perSecond, double noise, long seed) {
        Random r = new Random(seed);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = (start + perSecond * i) * (1 + noise * r.nextGaussian());
        }
        return y;
    }

    @Test
    void aRisingSeriesIsNotSteady() {
        WindowCheck c = WindowCheck.judge(5000, true, series(20, 3000, 100, 0.10, 1));
        assertFalse(c.steady(), c.toString());
        assertTrue(c.trend(), c.toString());
        assertFalse(c.swings(), c.toString());
        assertTrue(c.slopePctPerSec() > 1 && c.slopeP() < 0.05, c.toString());
        assertTrue(c.problem().startsWith("throughput rose "), c.problem());
        assertEquals(5000, c.warmupMs());
        assertEquals(20, c.samples());
        WindowCheck falling = WindowCheck.judge(0, null, series(20, 5000, -100, 0.05, 2));
        assertFalse(falling.steady());
        assertTrue(falling.problem().startsWith("throughput fell "), falling.problem());
        assertNull(falling.settled(), "a fixed warm-up");
    }

    @Test
    void aFlatNoisySeriesIsSteady() {
        WindowCheck c = WindowCheck.judge(12_100, true, series(20, 4000, 0, 0.15, 3));
        assertTrue(c.steady(), c.toString());
        assertNull(c.problem());
        assertTrue(c.cv() > 0.08 && c.cv() < 0.25, c.toString());
        int flagged = 0;
        for (long seed = 0; seed < 200; seed++) {
            flagged += WindowCheck.judge(0, null, series(20, 4000, 0, 0.15, seed)).steady() ? 0 : 1;
        }
        assertTrue(flagged <= 12, "flat series flagged as trends: " + flagged + " of 200 (the test's level is 5%)");
    }

    @Test
    void aTrendTooSmallToMatterIsSteady() {
        WindowCheck c = WindowCheck.judge(0, null, series(20, 4000, 1, 0.001, 4));
        assertTrue(c.slopeP() < 0.05, "significant: " + c);
        assertTrue(c.steady(), "but 0.5% across the window: " + c);
    }

    @Test
    void aSeriesThatSwingsIsNotSteady() {
        double[] y = new double[20];
        for (int i = 0; i < y.length; i++) {
            y[i] = i % 2 == 0 ? 1000 : 3000;
        }
        WindowCheck c = WindowCheck.judge(0, false, y);
        assertFalse(c.steady());
        assertFalse(c.trend());
        assertTrue(c.swings());
        assertTrue(c.problem().contains("CV of 51.3%"), c.problem());
    }

    @Test
    void tooShortOrEmptyWindows() {
        WindowCheck c = WindowCheck.judge(1000, null, new double[] {5, 6});
        assertNull(c.steady());
        assertNull(c.slopePctPerSec());
        assertEquals(2, c.samples());
        WindowCheck none = WindowCheck.judge(1000, null, new double[] {0, 0, 0, 0});
        assertFalse(none.steady());
        assertEquals("no transaction committed in the measured window", none.problem());
        WindowCheck flat = WindowCheck.judge(1000, null, new double[] {7, 7, 7, 7});
        assertTrue(flat.steady());
        assertNull(flat.slopeP(), "no p-value for a perfectly flat series");
        assertEquals(0, flat.cv());
    }

    @Test
    void samplesAreTheWindowsWholeSecondsOfTheTimeline() {
        List<TimelinePoint> timeline = new ArrayList<>();
        for (int i = 0; i < 48; i++) { // 4.8 s: warm-up 1.2 s, window 3.5 s (whole seconds: 3), drain
            timeline.add(new TimelinePoint((i + 1) * 100L, i < 12 ? 10 : i < 22 ? 100 : i < 32 ? 200 : 300));
        }
        long s = 1_000_000_000L;
        WindowCheck c = WindowCheck.of(timeline, new RunWindow(s, s + 1_200_000_000L, s + 4_700_000_000L), true);
        assertEquals(1200, c.warmupMs());
        assertEquals(3, c.samples());
        assertEquals(200, c.meanTxnPerSec(), 1e-9);
        assertEquals(50, c.slopePctPerSec(), 1e-9, "100 txn/s per second over a mean of 200");
        assertTrue(c.settled());
    }
}
