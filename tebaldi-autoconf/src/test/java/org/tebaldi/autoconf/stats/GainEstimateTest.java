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
    void interleavedWindowsCancelADriftOfTheMachinesSpeed() {
        // the machine slows down steadily (another tenant ramps up); the candidate is 20% faster than its neighbours
        List<Double> a = List.of(1000.0, 900.0, 800.0, 700.0);
        List<Double> b = List.of(1140.0, 1020.0, 900.0);
        GainEstimate paired = GainEstimate.interleaved(a, b, 0.9);
        assertEquals(0.2, paired.gain(), 0.005);
        assertTrue(paired.above(0.03), paired.describe());
        GainEstimate welch = GainEstimate.of(a, b, 0.9);
        assertFalse(welch.above(0.03), "the drift swamps independent groups: " + welch.describe());
        // A B A B A B: the last candidate window has only the incumbent window before it
        GainEstimate open = GainEstimate.interleaved(List.of(100.0, 100.0, 100.0), List.of(110.0, 110.0, 110.0),
                0.9);
        assertEquals(0.1, open.gain(), 1e-12);
        // differences d = ln B - mean(ln neighbours); t(0.95, 2) * sd/sqrt(n) * sqrt(1 + (n-1)/(3n))
        GainEstimate h = GainEstimate.interleaved(List.of(100.0, 100.0, 100.0, 100.0), List.of(110.0, 120.0, 130.0),
                0.9);
        double[] d = {Math.log(1.1), Math.log(1.2), Math.log(1.3)};
        double m = (d[0] + d[1] + d[2]) / 3;
        double sd = Math.sqrt(((d[0] - m) * (d[0] - m) + (d[1] - m) * (d[1] - m) + (d[2] - m) * (d[2] - m)) / 2);
        double half = 2.919986 * sd / Math.sqrt(3) * Math.sqrt(1 + 2 / 9.0);
        assertEquals(Math.expm1(m - half), h.low(), 1e-6);
        assertEquals(Math.expm1(m + half), h.high(), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> GainEstimate.interleaved(List.of(1.0), List.of(1.0, 2.0),
                0.9));
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
