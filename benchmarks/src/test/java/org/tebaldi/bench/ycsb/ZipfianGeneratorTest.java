package org.tebaldi.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.core.config.ConfigException;

/**
 * Draws of {@link ZipfianGenerator} follow the Zipf law 1/(i+1)^theta exactly (within sampling error) below and
 * above theta = 1: the ten hottest items each within 5 standard deviations of the binomial count, and the upper half
 * of the items as a whole; theta 0 is uniform; a seed gives one sequence.
 */
class ZipfianGeneratorTest {
    private static long[] histogram(int n, double theta, int draws, long seed) {
        ZipfianGenerator z = new ZipfianGenerator(n, theta);
        SplittableRandom r = new SplittableRandom(seed);
        long[] h = new long[n];
        for (int i = 0; i < draws; i++) {
            long x = z.next(r);
            assertTrue(x >= 0 && x < n, "out of range: " + x);
            h[(int) x]++;
        }
        return h;
    }

    /** The Zipf pmf over {@code n} items. */
    private static double[] pmf(int n, double theta) {
        double[] p = new double[n];
        double h = 0;
        for (int i = n; i >= 1; i--) {
            h += Math.pow(i, -theta);
        }
        for (int i = 0; i < n; i++) {
            p[i] = Math.pow(i + 1, -theta) / h;
        }
        return p;
    }

    private static void assertBinomial(double p, long count, int draws, String what) {
        double expected = draws * p;
        double sd = Math.sqrt(draws * p * (1 - p));
        assertEquals(expected, count, 5 * sd + 1, what);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.6, 0.99, 1.7})
    void drawsMatchTheZipfPmf(double theta) {
        int n = 1000;
        int draws = 400_000;
        long[] h = histogram(n, theta, draws, 7);
        double[] p = pmf(n, theta);
        for (int i = 0; i < 10; i++) {
            assertBinomial(p[i], h[i], draws, "theta " + theta + ", item " + i);
        }
        long tail = 0;
        double pTail = 0;
        for (int i = n / 2; i < n; i++) {
            tail += h[i];
            pTail += p[i];
        }
        assertBinomial(pTail, tail, draws, "theta " + theta + ", upper half");
    }

    @Test
    void thetaZeroIsUniform() {
        long[] h = histogram(10, 0, 100_000, 7);
        for (long c : h) {
            assertEquals(10_000, c, 600);
        }
    }

    @Test
    void aSeedGivesOneSequence() {
        assertArrayEquals(histogram(100, 1.7, 10_000, 3), histogram(100, 1.7, 10_000, 3));
    }

    @Test
    void badParametersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(10, 2.01));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(10, -0.1));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(10, Double.NaN));
    }

    @Test
    void aBadThetaInTheConfigGetsOneMessageNamingItsPlaceAndFix() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> new YcsbFactory().create(WorkloadOptions.of("ycsb", Map.of("theta", 2.5))));
        assertTrue(e.getMessage().contains("theta") && e.getMessage().contains("between 0.0 and 2.0")
                && e.getMessage().contains("write e.g."), e.getMessage());
        YcsbWorkload w = (YcsbWorkload) new YcsbFactory().create(WorkloadOptions.of("ycsb", Map.of("theta", 1.7,
                "records", 1_000)));
        assertTrue(w.newClient(0, 1).next() != null, "theta 1.7 is accepted");
    }
}
