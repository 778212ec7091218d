package org.tebaldi.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Draws of {@link ZipfianGenerator} follow 1/(i+1)^theta: exactly (within sampling error) for the two hottest items,
 * within 20% for the next ones and 10% for the upper half of the items (Gray et al.'s method approximates the
 * distribution beyond the second item, as YCSB's generator does); theta 0 is uniform.
 */
class ZipfianGeneratorTest {
    private static long[] histogram(int n, double theta, int draws) {
        ZipfianGenerator z = new ZipfianGenerator(n, theta);
        SplittableRandom r = new SplittableRandom(7);
        long[] h = new long[n];
        for (int i = 0; i < draws; i++) {
            long x = z.next(r);
            assertTrue(x >= 0 && x < n, "out of range: " + x);
            h[(int) x]++;
        }
        return h;
    }

    @Test
    void skewedDrawsMatchTheZipfLaw() {
        int n = 1000;
        double theta = 0.9;
        int draws = 400_000;
        long[] h = histogram(n, theta, draws);
        double zeta = 0;
        for (int i = 1; i <= n; i++) {
            zeta += 1 / Math.pow(i, theta);
        }
        for (int i = 0; i < 10; i++) {
            double expected = draws / Math.pow(i + 1, theta) / zeta;
            double tolerance = i < 2 ? 5 * Math.sqrt(expected) : 0.2 * expected;
            assertEquals(expected, h[i], tolerance, "item " + i);
        }
        long tail = 0;
        for (int i = 500; i < n; i++) {
            tail += h[i];
        }
        double expectedTail = 0;
        for (int i = 501; i <= n; i++) {
            expectedTail += draws / Math.pow(i, theta) / zeta;
        }
        assertEquals(expectedTail, tail, 0.1 * expectedTail, "upper half");
    }

    @Test
    void thetaZeroIsUniform() {
        long[] h = histogram(10, 0, 100_000);
        for (long c : h) {
            assertEquals(10_000, c, 600);
        }
    }

    @Test
    void badParametersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(10, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(10, -0.1));
    }
}
