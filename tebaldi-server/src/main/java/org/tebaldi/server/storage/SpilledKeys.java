package org.tebaldi.server.storage;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Which keys a disk tier may hold, in Guava Bloom filters (1% false positives) over every key written to it, so that
 * a lookup of a key never spilled — every new row a transaction inserts is looked up first — is answered on the
 * heap instead of by a call into RocksDB (docs/performance.md, "A bounded footprint", profiles both). A key deleted
 * from the tier stays in the filter (a false positive costs only the lookup). The filters grow as a list, each four
 * times the capacity of the one before (the first: 2^20 keys), about 1.2 bytes of heap per key spilled, in
 * {@code long[]} arrays the collector does not trace. A lookup probes every filter, newest first. Thread-safe:
 * Guava's filters are, and the list is copied on write.
 */
final class SpilledKeys {
    private static final int FIRST = 1 << 20;
    private static final double FALSE_POSITIVES = 0.01;
    /** Bits per key at 1% false positives: -ln(0.01) / ln(2)^2. */
    private static final double BITS_PER_KEY = 9.585;

    private final List<BloomFilter<byte[]>> filters = new CopyOnWriteArrayList<>();
    private final int first;
    private long capacity;
    private long added;
    private volatile long bytes;

    SpilledKeys() {
        this(FIRST);
    }

    /** @param first capacity of the first filter, keys (tests use small ones to see the list grow) */
    SpilledKeys(int first) {
        this.first = first;
    }

    /** Records that the tier now holds {@code key} (its encoded form). */
    synchronized void add(byte[] key) {
        if (filters.isEmpty() || added >= capacity) {
            capacity = filters.isEmpty() ? first : capacity * 4;
            filters.add(BloomFilter.create(Funnels.byteArrayFunnel(), capacity, FALSE_POSITIVES));
            added = 0;
            bytes += (long) (capacity * BITS_PER_KEY / 8);
        }
        filters.get(filters.size() - 1).put(key);
        added++;
    }

    /** False if the tier surely does not hold {@code key}; true if it may. */
    boolean mayHold(byte[] key) {
        List<BloomFilter<byte[]>> fs = filters;
        for (int i = fs.size() - 1; i >= 0; i--) {
            if (fs.get(i).mightContain(key)) {
                return true;
            }
        }
        return false;
    }

    /** Forgets every key (the tier was emptied). */
    synchronized void clear() {
        filters.clear();
        capacity = 0;
        added = 0;
        bytes = 0;
    }

    /** Heap bytes of the filters' bit arrays. */
    long bytes() {
        return bytes;
    }
}
