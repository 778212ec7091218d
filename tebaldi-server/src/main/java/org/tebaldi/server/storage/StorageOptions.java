package org.tebaldi.server.storage;

import java.nio.file.Path;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.storage.MultiVersionStore;
import org.tebaldi.core.storage.arena.ArenaBaseStore;

/**
 * How the data servers keep their rows (experiment key {@code storage:}; docs/performance.md, "Rows off the heap"
 * and "A bounded footprint").
 *
 * @param offHeap     settled versions leave the heap for an off-heap arena ({@code rows: offheap}, the default);
 *                    false keeps every version as Java objects ({@code rows: heap}, the store before rows moved off the heap)
 * @param memoryBytes bytes of off-heap memory the data servers' arenas may hold together, split evenly among
 *                    them ({@link #UNLIMITED}: no bound; {@link #AUTO}: half of the JVM's direct-memory limit,
 *                    {@link #maxDirectMemory}); beyond it, cold rows go to a RocksDB disk tier per data server and
 *                    are read back on demand
 * @param dir         where the disk tiers go (a fresh {@code ds<i>-*} directory each, deleted when the store
 *                    closes); null: the system's temporary directory
 */
public record StorageOptions(boolean offHeap, long memoryBytes, Path dir) {
    /** No memory bound. */
    public static final long UNLIMITED = Long.MAX_VALUE;
    /** Half of the JVM's direct-memory limit (the rest is left to other direct buffers: the network, codecs). */
    public static final long AUTO = -1;
    /** Off-heap rows within half of the direct-memory limit, the disk tier in the temporary directory (the default). */
    public static final StorageOptions DEFAULT = new StorageOptions(true, AUTO, null);
    /** Every version on the heap. */
    public static final StorageOptions HEAP = new StorageOptions(false, UNLIMITED, null);

    /** @throws IllegalArgumentException if {@code memoryBytes} &lt; 0 and not {@link #AUTO} */
    public StorageOptions {
        if (memoryBytes < 0 && memoryBytes != AUTO) {
            throw new IllegalArgumentException("storage memory " + memoryBytes + " < 0");
        }
    }

    /** Off-heap rows bounded to {@code memoryBytes} in total, the disk tiers under {@code dir} (null: temporary). */
    public static StorageOptions bounded(long memoryBytes, Path dir) {
        return new StorageOptions(true, memoryBytes, dir);
    }

    /** The memory budget of one of {@code dataServers} data servers, bytes ({@link #AUTO} resolved). */
    public long perServer(int dataServers) {
        long total = memoryBytes == AUTO ? maxDirectMemory() / 2 : memoryBytes;
        return total == UNLIMITED ? UNLIMITED : total / Math.max(1, dataServers);
    }

    /**
     * Bytes this JVM may allocate in direct buffers: {@code -XX:MaxDirectMemorySize}, by default the maximum heap
     * ({@code -Xmx}) — read through the HotSpot diagnostic bean, else the maximum heap.
     */
    public static long maxDirectMemory() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean b = java.lang.management.ManagementFactory
                    .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            long v = Long.parseLong(b.getVMOption("MaxDirectMemorySize").getValue());
            if (v > 0) {
                return v;
            }
        } catch (RuntimeException e) {
            // not HotSpot: the default below
        }
        return Runtime.getRuntime().maxMemory();
    }

    /**
     * The store of data server {@code index} of {@code dataServers}.
     *
     * @param expectedKeys capacity hint (keys of its largest table)
     */
    public MultiVersionStore open(int index, int dataServers, Catalog catalog, int expectedKeys) {
        if (!offHeap) {
            return new MultiVersionStore(expectedKeys);
        }
        long budget = perServer(dataServers);
        Path parent = dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"), "tebaldi-storage");
        return new MultiVersionStore(expectedKeys, new ArenaBaseStore(catalog, budget, expectedKeys,
                budget == UNLIMITED ? null : () -> RocksColdStore.open(parent, "ds" + index)));
    }
}
