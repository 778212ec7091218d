package org.tebaldi.bench.experiment;

import java.nio.file.Path;
import org.tebaldi.server.durability.DurabilityOptions;

/**
 * The {@code durability:} section (dissertation §4.5.4; docs/mechanisms.md, "Garbage collection and durability"): {@code enabled} (false), {@code dir} (the data
 * servers' RocksDB stores, one {@code ds<i>} folder each; default {@code <run dir>/rocksdb}), {@code epoch} (GCP
 * epoch length, 1s) and {@code sync} (synchronous mode, false).
 *
 * @param enabled     whether data servers log and clients get durable notifications
 * @param dir         the stores' parent directory as written (relative to the working directory), or null for the
 *                    default
 * @param epochMicros GCP epoch length, µs
 * @param sync        synchronous mode: commit notifications only once durable
 */
public record DurabilitySpec(boolean enabled, String dir, long epochMicros, boolean sync) {
    /** Durability off. */
    public static final DurabilitySpec OFF = new DurabilitySpec(false, null, DurabilityOptions.DEFAULT_EPOCH_MICROS,
            false);

    /**
     * The cluster's options: stores under {@code dir} (resolved against {@code cwd}), else under {@code fallback}.
     */
    public DurabilityOptions options(Path cwd, Path fallback) {
        if (!enabled) {
            return DurabilityOptions.OFF;
        }
        Path d = dir != null ? cwd.resolve(dir).normalize() : fallback;
        return DurabilityOptions.rocksDb(d, epochMicros, sync);
    }
}
