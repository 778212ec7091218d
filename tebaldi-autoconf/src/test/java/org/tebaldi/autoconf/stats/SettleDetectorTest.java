package org.tebaldi.autoconf.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Settle detection: a climb after a swap is waited out, flat noise settles at once, stalls do not count. */
class SettleDetectorTest {
    private static int settleAfter(double[] xs, SettleDetector d) {
        for (double x : xs) {
            if (d.offer(x)) {
                return d.seen();
            }
        }
        return -1;
    }

    @Test
    void waitsOutAClimbAndSettlesOnAFlatWindow() {
        double[] xs = new double[40];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = i < 10 ? 1000 + 600 * i : 7000 + (i % 2 == 0 ? 150 : -150);
        }
        SettleDetector d = new SettleDetector(5, 0.05, 30);
        int at = settleAfter(xs, d);
        assertTrue(at >= 11 && at <= 16, "settled after " + at + " samples");
        assertFalse(d.timedOut());
    }

    @Test
    void flatNoiseSettlesAtTheFirstFullWindowMostOfTheTime() {
        Random r = new Random(5);
        int first = 0;
        for (int s = 0; s < 500; s++) {
            double[] xs = new double[30];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = 7000 * Math.exp(0.3 * r.nextGaussian());
            }
            if (settleAfter(xs, new SettleDetector(5, 0.05, 30)) == 5) {
                first++;
            }
        }
        // a slope test at 5% on pure noise flags a trend about 5% of the time
        assertTrue(first > 450, first + " of 500");
    }

    @Test
    void aStallIsNotSettledAndDetectionGivesUpAtItsMaximum() {
        double[] xs = new double[12];
        SettleDetector d = new SettleDetector(5, 0.05, 8);
        assertEquals(8, settleAfter(xs, d));
        assertTrue(d.timedOut());
    }

    @Test
    void rejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> new SettleDetector(2, 0.05, 10));
        assertThrows(IllegalArgumentException.class, () -> new SettleDetector(5, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> new SettleDetector(5, 0.05, 4));
    }
}
