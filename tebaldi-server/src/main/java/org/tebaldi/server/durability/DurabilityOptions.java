package org.tebaldi.server.durability;

import java.nio.file.Path;

/**
 * Durability settings of a cluster (dissertation §4.5.4; experiment keys {@code durability.enabled}, {@code .dir},
 * {@code .epoch}, {@code .sync}).
 *
 * @param enabled     whether data servers log to their store and coordinators send durable notifications; when
 *                    false nothing else here is used and the hot path pays nothing
 * @param dir         parent directory of the data servers' stores ({@code <dir>/ds<i>}, one RocksDB database each)
 * @param epochMicros length of a GCP epoch, µs (default 1 s): logs are flushed to disk once per epoch, and a commit
 *                    becomes durable about one epoch after it committed
 * @param sync        synchronous mode: a data server syncs its precommit log before it answers validation, closes an
 *                    epoch as soon as the previous one is on disk (group commit), and coordinators send the commit
 *                    notification only once the transaction is durable
 * @param stores      opens data server {@code i}'s store; null for RocksDB under {@code dir} (tests plug in
 *                    {@link MemoryLogStore}s)
 * @param writeLatencyMicros injected durable-write latency, µs (0: none; COCO Fig 11): every synced store write
 *                    completes no earlier than this long after it was issued ({@link DelayedLogStore}), on top of
 *                    the store's own sync time; at most {@link #MAX_WRITE_LATENCY_MICROS}
 */
public record DurabilityOptions(boolean enabled, Path dir, long epochMicros, boolean sync, LogStore.Factory stores,
                                long writeLatencyMicros) {
    /** Largest injectable durable-write latency, µs (10 s). */
    public static final long MAX_WRITE_LATENCY_MICROS = 10_000_000;

    /** Default GCP epoch length, µs. */
    public static final long DEFAULT_EPOCH_MICROS = 1_000_000;

    /** Durability off. */
    public static final DurabilityOptions OFF = new DurabilityOptions(false, null, DEFAULT_EPOCH_MICROS, false, null);

    /** Without an injected write latency. */
    public DurabilityOptions(boolean enabled, Path dir, long epochMicros, boolean sync, LogStore.Factory stores) {
        this(enabled, dir, epochMicros, sync, stores, 0);
    }

    /**
     * @throws IllegalArgumentException if enabled without a directory or store factory, the epoch is not positive,
     *                                  or the write latency is outside 0 .. {@link #MAX_WRITE_LATENCY_MICROS}
     */
    public DurabilityOptions {
        if (enabled && dir == null && stores == null) {
            throw new IllegalArgumentException("durability needs a directory for the data servers' stores");
        }
        if (epochMicros <= 0) {
            throw new IllegalArgumentException("GCP epoch must be positive, got " + epochMicros + " µs");
        }
        if (writeLatencyMicros < 0 || writeLatencyMicros > MAX_WRITE_LATENCY_MICROS) {
            throw new IllegalArgumentException("durable-write latency must be 0 .. " + MAX_WRITE_LATENCY_MICROS
                    + " µs, got " + writeLatencyMicros + " µs");
        }
    }

    /** The same options with an injected durable-write latency of {@code micros} µs (0: none). */
    public DurabilityOptions withWriteLatency(long micros) {
        return new DurabilityOptions(enabled, dir, epochMicros, sync, stores, micros);
    }

    /** In-memory stores (nothing survives the process), one fresh {@link MemoryLogStore} per data server. */
    public static DurabilityOptions memory(long epochMicros, boolean sync) {
        return new DurabilityOptions(true, null, epochMicros, sync, MemoryLogStore.fresh());
    }

    /** Asynchronous flushing in epochs of {@code epochMicros} into RocksDB stores under {@code dir}. */
    public static DurabilityOptions rocksDb(Path dir, long epochMicros, boolean sync) {
        return new DurabilityOptions(true, dir, epochMicros, sync, null);
    }

    /** The store directory of data server {@code ds}. */
    public Path dirOf(int ds) {
        return dir.resolve("ds" + ds);
    }
}
