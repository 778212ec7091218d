package org.tebaldi.core.cc.ts;

import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide counters of DST read-only snapshot reads, for {@code summary.json} ({@code roVisibilityLagMs},
 * {@code roBlockedReads}): every snapshot read at a data server counts once, with its visibility lag — how far
 * its read timestamp's physical part lies behind the data server's clock when it reads (µs; updates committed in
 * that window are not visible to it) — and whether it had to wait for a prepared writer (RO2: the one conflicting
 * writer whose commit timestamp may fall below the read timestamp). Thread-safe; a run resets them at the start of
 * its measured window ({@link #reset}). Counts every cluster in the JVM, so runs that overlap share them.
 */
public final class SnapshotStats {
    private static final LongAdder READS = new LongAdder();
    private static final LongAdder BLOCKED = new LongAdder();
    private static final LongAdder LAG_MICROS = new LongAdder();

    private SnapshotStats() {
    }

    /** One snapshot read with read timestamp {@code readTs} at a server whose clock reads {@code nowMicros}. */
    public static void read(long readTs, long nowMicros) {
        READS.increment();
        LAG_MICROS.add(Math.max(0, nowMicros - HybridClock.physicalMicros(readTs)));
    }

    /** A snapshot read waited for a prepared writer. */
    public static void blocked() {
        BLOCKED.increment();
    }

    /** Snapshot reads since the last reset. */
    public static long reads() {
        return READS.sum();
    }

    /** Snapshot reads that waited for a prepared writer since the last reset. */
    public static long blockedReads() {
        return BLOCKED.sum();
    }

    /** Mean visibility lag of the snapshot reads since the last reset, ms; NaN if there was none. */
    public static double meanLagMs() {
        long n = READS.sum();
        return n == 0 ? Double.NaN : LAG_MICROS.sum() / 1000.0 / n;
    }

    /** Zeroes the counters. */
    public static void reset() {
        READS.reset();
        BLOCKED.reset();
        LAG_MICROS.reset();
    }
}
