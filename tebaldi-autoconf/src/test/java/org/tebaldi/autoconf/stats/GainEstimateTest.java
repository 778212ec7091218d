package org.tebaldi.autoconf.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Welch intervals on log window means: values worked by hand, coverage over many seeds, bad input. */
class GainEstimateTest {
    @Test
    void matchesAHandComputedWelchInterval() {
        // ln A = ln{100, 110, 90}, ln B = ln{120, 130, 110}; computed independently with scipy.stats.t
        GainEstimate g = GainEstimate.of(List.of(100.0, 110.0, 90.0), List.of(120.0, 130.0, 110.0), 0.9);
        double d = (Math.log(120) + Math.log(130) + Math.log(110) - Math.log(100) - Math.log(110) - Math.log(90)) / 3;
        assertEquals(Math.expm1(d), g.gain(), 1e-12);
        assertEquals(100.0, g.incumbentTxnPerSec(), 1e-9);
        assertEquals(120.0, g.candidateTxnPerSec(), 1e-9);
        // variances of the logs: 0.0100756 and 0.0069808; se = sqrt((0.0100756 + 0.0069808) / 3) = 0.0754021;
        // Welch df = 3.87251; t(0.95, 3.87251) = 2.15217 -> half width 0.162278
        assertEquals(0.021294, g.low(), 1e-5);
        assertEquals(0.412876, g.high(), 1e-5);
        assertTrue(g.above(0.02));
        assertFalse(g.above(0.03));
        assertEquals("+20.1% [+2.1%, +41.3%]", g.describe());
    }

    @Test
    void identicalWindowsGiveAPointInterval() {
        GainEstimate g = GainEstimate.of(List.of(100.0, 100.0), List.of(110.0, 110.0), 0.9);
        assertEquals(0.1, g.low(), 1e-12);
        assertEquals(0.1, g.high(), 1e-12);
    }

    @Test
    void coversTheTrueGainAtItsLevel() {
        Random r = new Random(11);
        int covered = 0;
        int n = 4000;
        for (int i = 0; i < n; i++) {
            List<Double> a = new ArrayList<>();
            List<Double> b = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                a.add(1000 * Math.exp(0.08 * r.nextGaussian()));
                b.add(1100 * Math.exp(0.12 * r.nextGaussian()));
            }
            GainEstimate g = GainEstimate.of(a, b, 0.9);
            if (g.low() <= 0.1 && 0.1 <= g.high()) {
                covered++;
            }
        }
        double rate = covered / (double) n;
        // Welch's interval is approximate for unequal variances: within a point or two of its level
        assertTrue(rate > 0.88 && rate < 0.93, "coverage " + rate);
    }

    @Test
    void rejectsTooFewWindowsZeroThroughputAndBadLevels() {
        assertThrows(IllegalArgumentException.class, () -> GainEstimate.of(List.of(1.0), List.of(1.0, 2.0), 0.9));
        assertThrows(IllegalArgumentException.class, () -> GainEstimate.of(List.of(0.0, 1.0), List.of(1.0, 2.0),
                0.9));
        assertThrows(IllegalArgumentException.class, () -> GainEstimate.of(List.of(1.0, 1.0), List.of(1.0, 2.0),
                1.0));
    }
}
