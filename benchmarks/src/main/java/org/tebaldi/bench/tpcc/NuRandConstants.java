package org.tebaldi.bench.tpcc;

import java.util.SplittableRandom;

/**
 * The run-time constants C of NURand (TPC-C §2.1.6): one per A value, chosen at random once per run and shared
 * by every client (and, for {@code cLast}, the loader). Payment and order_status select customers by id only
 * (dissertation §4.6), so the run-time C_LAST constant and its delta rule (§2.1.6.1) are not needed.
 *
 * @param cLast C for A=255 (customer last names at load time, §4.3.2.3), in [0, 255]
 * @param cId   C for A=1023 (customer ids), in [0, 1023]
 * @param olIId C for A=8191 (item ids), in [0, 8191]
 */
public record NuRandConstants(int cLast, int cId, int olIId) {
    /** @throws IllegalArgumentException if a constant is outside [0, A] */
    public NuRandConstants {
        if (cLast < 0 || cLast > 255 || cId < 0 || cId > 1023 || olIId < 0 || olIId > 8191) {
            throw new IllegalArgumentException("NURand constants out of range: " + cLast + ", " + cId + ", " + olIId);
        }
    }

    /** Constants drawn uniformly from a seed (deterministic). */
    public static NuRandConstants fromSeed(long seed) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x4E55_5241_4E44L);
        return new NuRandConstants(r.nextInt(256), r.nextInt(1024), r.nextInt(8192));
    }
}
