package org.tebaldi.bench.experiment;

import java.nio.file.Path;
import org.tebaldi.server.durability.DurabilityOptions;

/**
 * The {@code durability:} section (dissertation §4.5.4; docs/mechanisms.md, "Garbage collection and durability"): {@code enabled} (false), {@code dir} (the data
 * servers' RocksDB stores, one {@code ds<i>} folder each; default {@code <run dir>/rocksdb}), {@code epoch} (GCP
 * epoch length, 1s), {@code sync} (synchronous mode, false), {@code writeLatency} (an injected durable-write latency,
 * 0 – 10 s, default 0: every synced write completes no earlier than this after it was issued; COCO Fig 11) and
 * {@code store} ({@code rocksdb}, the default, or {@code memory}: in-memory stores that survive nothing, so that an
 * injected latency is the only cost of a sync; or, in {@code cluster.mode: simulated}, {@code simulated}, its only
 * store there: a modelled RocksDB store whose appends take the cost table's CPU and whose syncs its measured sync
 * time, docs/simulation.md, "Durability").
 *
 * @param enabled     whether data servers log and clients get durable notifications
 * @param dir         the stores' parent directory as written (relative to the working directory), or null for the
 *                    default
 * @param epochMicros GCP epoch length, µs
 * @param sync        synchronous mode: commit notifications only once durable
 * @param writeLatencyMicros injected durable-write latency, µs (0: none)
 * @param memory      in-memory stores instead of RocksDB
 * @param simulated   the simulated cluster's modelled stores ({@code store: simulated})
 */
public record DurabilitySpec(boolean enabled, String dir, long epochMicros, boolean sync, long writeLatencyMicros,
                             boolean memory, boolean simulated) {
    /** Durability off. */
    public static final DurabilitySpec OFF = new DurabilitySpec(false, null, DurabilityOptions.DEFAULT_EPOCH_MICROS,
            false);

    /** Real stores (RocksDB, or in memory). */
    public DurabilitySpec(boolean enabled, String dir, long epochMicros, boolean sync, long writeLatencyMicros,
                          boolean memory) {
        this(enabled, dir, epochMicros, sync, writeLatencyMicros, memory, false);
    }

    /** The {@code store} key's value: {@code rocksdb}, {@code memory} or {@code simulated}. */
    public String store() {
        return simulated ? "simulated" : memory ? "memory" : "rocksdb";
    }

    /** RocksDB stores without an injected latency. */
    public DurabilitySpec(boolean enabled, String dir, long epochMicros, boolean sync) {
        this(enabled, dir, epochMicros, sync, 0, false);
    }

    /**
     * The cluster's options: stores under {@code dir} (resolved against {@code cwd}), else under {@code fallback}.
     *
     * @throws IllegalStateException for simulated stores (the simulated run builds them on its runtime)
     */
    public DurabilityOptions options(Path cwd, Path fallback) {
        if (!enabled) {
            return DurabilityOptions.OFF;
        }
        if (simulated) {
            throw new IllegalStateException("simulated stores are made by the simulated run");
        }
        if (memory) {
            return DurabilityOptions.memory(epochMicros, sync).withWriteLatency(writeLatencyMicros);
        }
        Path d = dir != null ? cwd.resolve(dir).normalize() : fallback;
        return DurabilityOptions.rocksDb(d, epochMicros, sync).withWriteLatency(writeLatencyMicros);
    }
}
