package org.tebaldi.core.storage;

/**
 * What a data server's store holds and where (docs/performance.md, "Rows off the heap"; {@code memory.csv}).
 *
 * @param keys          keys with a version anywhere
 * @param hotKeys       keys whose versions are Java objects (chains running transactions may still need)
 * @param offHeapBytes  memory the base store's arena reserved outside the heap, bytes (its segments, free ones too)
 * @param liveBytes     of that, bytes of records still current
 * @param diskKeys      keys whose only copy is on disk (beyond the memory budget)
 * @param diskBytes     bytes of the disk tier (files and write buffers), approximate
 * @param readBack      chains built from the base store so far (lookups of keys not in memory)
 * @param evicted       chains that left the heap for the base store so far
 */
public record StorageStats(long keys, long hotKeys, long offHeapBytes, long liveBytes, long diskKeys,
                           long diskBytes, long readBack, long evicted) {
    /** Nothing held. */
    public static final StorageStats EMPTY = new StorageStats(0, 0, 0, 0, 0, 0, 0, 0);

    /** The sum of two servers' figures. */
    public StorageStats plus(StorageStats o) {
        return new StorageStats(keys + o.keys, hotKeys + o.hotKeys, offHeapBytes + o.offHeapBytes,
                liveBytes + o.liveBytes, diskKeys + o.diskKeys, diskBytes + o.diskBytes, readBack + o.readBack,
                evicted + o.evicted);
    }
}
