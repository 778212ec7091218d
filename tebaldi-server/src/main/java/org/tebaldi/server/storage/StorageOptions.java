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
 *                    false keeps every version as Java objects ({@code rows: heap}, the store before issue 33)
 * @param memoryBytes bytes of off-heap memory the data servers' arenas may hold together, split evenly among
 *                    them ({@link #UNLIMITED}: no bound); beyond it, cold rows go to a RocksDB disk tier per data
 *                    server and are read back on demand
 * @param dir         where the disk tiers go (a fresh {@code ds<i>-*} directory each, deleted when the store
 *                    closes); null: the system's temporary directory
 */
public record StorageOptions(boolean offHeap, long memoryBytes, Path dir) {
    /** No memory bound. */
    public static final long UNLIMITED = Long.MAX_VALUE;
    /** Off-heap rows without a memory bound (the default). */
    public static final StorageOptions DEFAULT = new StorageOptions(true, UNLIMITED, null);
    /** Every version on the heap. */
    public static final StorageOptions HEAP = new StorageOptions(false, UNLIMITED, null);

    /** @throws IllegalArgumentException if {@code memoryBytes} &lt; 0 */
    public StorageOptions {
        if (memoryBytes < 0) {
            throw new IllegalArgumentException("storage memory " + memoryBytes + " < 0");
        }
    }

    /** Off-heap rows bounded to {@code memoryBytes} in total, the disk tiers under {@code dir} (null: temporary). */
    public static StorageOptions bounded(long memoryBytes, Path dir) {
        return new StorageOptions(true, memoryBytes, dir);
    }

    /** The memory budget of one of {@code dataServers} data servers, bytes. */
    public long perServer(int dataServers) {
        return memoryBytes == UNLIMITED ? UNLIMITED : memoryBytes / Math.max(1, dataServers);
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
