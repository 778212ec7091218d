package org.tebaldi.core.cc.ts;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of DST read-only snapshot reads at one data-server part, for {@code summary.json}
 * ({@code roVisibilityLagMs}, {@code roBlockedReads}): every snapshot read counts once, with its visibility lag — how
 * far its read timestamp's physical part lies behind the data server's clock when it reads (µs; updates committed
 * in that window are not visible to it) — and whether it had to wait for a prepared writer (RO2: the one
 * conflicting writer whose commit timestamp may fall below the read timestamp). One instance per part, so two
 * clusters (runs) in one JVM never mix their counts; the part reports them through
 * {@link org.tebaldi.core.cc.DsPart#counters}, the cluster sums them over its data servers and a run takes the
 * difference over its measured window. Thread-safe (read by the driver while the data server runs).
 */
public final class SnapshotStats {
    /** Counter names in {@link #counters}. */
    public static final String READS = "dst.roReads";
    /** Snapshot reads that waited for a prepared writer. */
    public static final String BLOCKED = "dst.roBlockedReads";
    /** Sum of the snapshot reads' visibility lags, µs. */
    public static final String LAG_MICROS = "dst.roLagMicros";

    private final LongAdder reads = new LongAdder();
    private final LongAdder blocked = new LongAdder();
    private final LongAdder lagMicros = new LongAdder();

    /** One snapshot read with read timestamp {@code readTs} at a server whose clock reads {@code nowMicros}. */
    public void read(long readTs, long nowMicros) {
        reads.increment();
        lagMicros.add(Math.max(0, nowMicros - HybridClock.physicalMicros(readTs)));
    }

    /** A snapshot read waited for a prepared writer. */
    public void blocked() {
        blocked.increment();
    }

    /** The counts so far, by the names above. */
    public Map<String, Long> counters() {
        Map<String, Long> m = new TreeMap<>();
        m.put(READS, reads.sum());
        m.put(BLOCKED, blocked.sum());
        m.put(LAG_MICROS, lagMicros.sum());
        return m;
    }

    /** Mean visibility lag of the snapshot reads in {@code counters} (summed as above), ms; NaN if there was none. */
    public static double meanLagMs(Map<String, Long> counters) {
        long n = counters.getOrDefault(READS, 0L);
        return n <= 0 ? Double.NaN : counters.getOrDefault(LAG_MICROS, 0L) / 1000.0 / n;
    }
}
