package org.tebaldi.core.runtime.cost;

import java.util.Arrays;

/**
 * A short, deterministic single-threaded CPU workload that tells how fast this host runs code like the engine's
 * (docs/simulation.md, "Calibration"): {@code scripts/tebaldi calibrate} records it in the cost table's
 * {@code calibration.host}, and a simulated run measures it again at its start to tell whether the table was
 * measured on a host like this one ({@link HostIdentity#compare}).
 *
 * <p>One iteration fills {@value #LENGTH} longs from a SplitMix64 sequence seeded by the iteration number, heap-sorts
 * them (this class's own code, so the work does not depend on the JDK's sort) and folds them into a checksum:
 * branches, array reads and writes within the L1/L2 caches, 64-bit multiplies — what a handler does, without
 * allocation (nothing for the garbage collector) or I/O. {@value #WARMUP} iterations first let the JIT compiler
 * compile it; then {@value #REPEATS} repeats of {@value #ITERATIONS} iterations each are timed with
 * {@link System#nanoTime()} and the median repeat gives the result. It takes about half a second on a 2020s server
 * core; the checksum is the same on every host (it tells that the same work was done).
 */
public final class SpeedProbe {
    /** The kernel's name, recorded with the result: a changed kernel is not comparable. */
    public static final String KERNEL = "heapsort-4096-splitmix64";
    /** Longs sorted per iteration. */
    static final int LENGTH = 4096;
    /** Unmeasured iterations before the timed repeats (JIT compilation). */
    static final int WARMUP = 300;
    /** Timed repeats; the median is the result. */
    static final int REPEATS = 5;
    /** Iterations per timed repeat. */
    static final int ITERATIONS = 150;

    /** Keeps the JIT compiler from dropping the kernel. */
    private static volatile long sink;

    private SpeedProbe() {
    }

    /**
     * What the probe measured.
     *
     * @param kernel         {@link #KERNEL}
     * @param nsPerIteration the median repeat's time per iteration, ns (&gt; 0)
     * @param minNs          the fastest repeat's time per iteration, ns
     * @param maxNs          the slowest repeat's time per iteration, ns
     * @param repeats        timed repeats
     * @param iterations     iterations per repeat
     * @param checksum       the sum of one repeat's iteration folds (the same on every host)
     */
    public record Result(String kernel, double nsPerIteration, double minNs, double maxNs, int repeats, int iterations,
                         long checksum) {
        /** @throws IllegalArgumentException if a time is not positive or the counts are below 1 */
        public Result {
            if (!(nsPerIteration > 0) || !(minNs > 0) || !(maxNs >= minNs) || repeats < 1 || iterations < 1) {
                throw new IllegalArgumentException("bad speed probe: " + nsPerIteration + " ns (" + minNs + "-" + maxNs
                        + "), " + repeats + " x " + iterations);
            }
        }

        /** (max - min) / median: how much the repeats disagreed. */
        public double spread() {
            return (maxNs - minNs) / nsPerIteration;
        }
    }

    /** Runs the probe on the calling thread (about 0.5 s). */
    public static Result measure() {
        return measure(WARMUP, REPEATS, ITERATIONS);
    }

    /**
     * Runs the probe with other counts (tests).
     *
     * @throws IllegalArgumentException if {@code repeats} or {@code iterations} is below 1 or {@code warmup} negative
     */
    static Result measure(int warmup, int repeats, int iterations) {
        if (warmup < 0 || repeats < 1 || iterations < 1) {
            throw new IllegalArgumentException("need warmup >= 0, repeats >= 1, iterations >= 1: " + warmup + ", "
                    + repeats + ", " + iterations);
        }
        long[] a = new long[LENGTH];
        long sum = 0;
        for (int i = 0; i < warmup; i++) {
            sum += iteration(a, i);
        }
        double[] times = new double[repeats];
        long checksum = 0;
        for (int r = 0; r < repeats; r++) {
            long c = 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                c += iteration(a, i);
            }
            times[r] = Math.max(1, System.nanoTime() - t0) / (double) iterations;
            checksum = c;
        }
        sink = sum + checksum;
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        return new Result(KERNEL, sorted[repeats / 2], sorted[0], sorted[repeats - 1], repeats, iterations,
                checksum);
    }

    /** One iteration on {@code a} seeded by {@code seed}: fill, heap-sort, fold; returns the fold. */
    static long iteration(long[] a, long seed) {
        long x = seed * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < a.length; i++) {
            x += 0x9E3779B97F4A7C15L;
            long z = x;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            a[i] = z ^ (z >>> 31);
        }
        heapSort(a);
        long h = 0;
        for (int i = 0; i < a.length; i += 7) {
            h = h * 31 + a[i];
        }
        return h;
    }

    /** Sorts {@code a} ascending in place (heap sort). */
    static void heapSort(long[] a) {
        int n = a.length;
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(a, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            long t = a[0];
            a[0] = a[end];
            a[end] = t;
            siftDown(a, 0, end);
        }
    }

    private static void siftDown(long[] a, int i, int n) {
        long v = a[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && a[c + 1] > a[c]) {
                c++;
            }
            if (a[c] <= v) {
                break;
            }
            a[i] = a[c];
            i = c;
        }
        a[i] = v;
    }
}
