package org.tebaldi.bench.run;

import com.sun.management.GcInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.tebaldi.core.storage.StorageStats;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * The memory figures {@code memory.csv} and the live view show (docs/performance.md, "Rows off the heap"): the heap
 * right after the latest collection — the live data, without the garbage a sample at a random point of the
 * allocation cycle includes — and what the data servers' stores hold on the heap, off it and on disk. Any thread.
 */
public final class MemoryFigures {
    private MemoryFigures() {
    }

    /**
     * Bytes in use in the heap right after the most recent collection (young or full), from the collectors'
     * {@code GcInfo}; 0 before the first collection.
     */
    public static long heapAfterGcBytes() {
        GcInfo last = null;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            GcInfo g = b instanceof com.sun.management.GarbageCollectorMXBean x ? x.getLastGcInfo() : null;
            if (g != null && (last == null || g.getEndTime() > last.getEndTime())) {
                last = g;
            }
        }
        if (last == null) {
            return 0;
        }
        Set<String> heapPools = new HashSet<>();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                heapPools.add(p.getName());
            }
        }
        long sum = 0;
        for (Map.Entry<String, MemoryUsage> e : last.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                sum += e.getValue().getUsed();
            }
        }
        return sum;
    }

    /** The data servers' stores together (approximate while they run). */
    public static StorageStats storage(Cluster cluster) {
        StorageStats s = StorageStats.EMPTY;
        for (DataServer d : cluster.dataServers()) {
            s = s.plus(d.store().stats());
        }
        return s;
    }
}
