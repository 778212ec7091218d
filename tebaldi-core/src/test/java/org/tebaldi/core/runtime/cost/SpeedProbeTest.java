package org.tebaldi.core.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SpeedProbe}: it runs, its times are positive and ordered, and it does the same work every time (same
 * checksum). No speed is asserted: the machine may be shared.
 */
class SpeedProbeTest {
    @Test
    void theFullProbeRunsAndGivesAPositiveMedianBetweenItsExtremes() {
        SpeedProbe.Result r = SpeedProbe.measure();
        assertEquals(SpeedProbe.KERNEL, r.kernel());
        assertEquals(SpeedProbe.REPEATS, r.repeats());
        assertEquals(SpeedProbe.ITERATIONS, r.iterations());
        assertTrue(r.nsPerIteration() > 0, r.toString());
        assertTrue(r.minNs() <= r.nsPerIteration() && r.nsPerIteration() <= r.maxNs(), r.toString());
        assertTrue(r.spread() >= 0, r.toString());
    }

    @Test
    void theSameWorkEveryTime() {
        SpeedProbe.Result a = SpeedProbe.measure(5, 3, 4);
        SpeedProbe.Result b = SpeedProbe.measure(0, 1, 4);
        assertEquals(a.checksum(), b.checksum(), "the checksum depends on the iterations only");
        assertTrue(a.checksum() != SpeedProbe.measure(0, 1, 5).checksum(), "another count, another checksum");
        long[] x = new long[SpeedProbe.LENGTH];
        long[] y = new long[SpeedProbe.LENGTH];
        assertEquals(SpeedProbe.iteration(x, 3), SpeedProbe.iteration(y, 3));
        assertTrue(SpeedProbe.iteration(x, 3) != SpeedProbe.iteration(x, 4));
    }

    @Test
    void theKernelSorts() {
        Random r = new Random(1);
        for (int n : new int[] {0, 1, 2, 3, 10, 1000}) {
            long[] a = r.longs(n).toArray();
            long[] sorted = a.clone();
            Arrays.sort(sorted);
            SpeedProbe.heapSort(a);
            assertTrue(Arrays.equals(sorted, a), "n=" + n);
        }
    }

    @Test
    void badCountsAndTimesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> SpeedProbe.measure(0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> SpeedProbe.measure(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> SpeedProbe.measure(-1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new SpeedProbe.Result("k", 0, 1, 1, 1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SpeedProbe.Result("k", 2, 3, 1, 1, 1, 0));
    }
}
