package org.tebaldi.bench.experiment;

import java.nio.file.Path;
import org.tebaldi.core.config.Sizes;
import org.tebaldi.server.storage.StorageOptions;

/**
 * The {@code storage:} section (docs/performance.md, "Rows off the heap" and "A bounded footprint"): {@code rows}
 * ({@code offheap}, the default: settled versions as compact bytes in an off-heap arena, or {@code heap}: every
 * version as Java objects, the store before), {@code memory} (the off-heap bytes the data servers' rows may take
 * together: a size such as {@code 2g}, {@code unlimited}, or {@code auto}, the default: half of the JVM's
 * direct-memory limit, which is {@code -Xmx} unless {@code -XX:MaxDirectMemorySize} says otherwise), and {@code dir}
 * (where the rows beyond {@code memory} go: a RocksDB directory per data server, deleted after the run; default
 * {@code <run dir>/storage}).
 *
 * @param offHeap     rows: offheap
 * @param memoryBytes the budget, bytes ({@link StorageOptions#AUTO}, {@link StorageOptions#UNLIMITED})
 * @param dir         the disk tiers' parent directory as written (relative to the working directory), or null
 */
public record StorageSpec(boolean offHeap, long memoryBytes, String dir) {
    /** The defaults: off-heap rows, half of the direct-memory limit. */
    public static final StorageSpec DEFAULT = new StorageSpec(true, StorageOptions.AUTO, null);

    /** The cluster's options: disk tiers under {@code dir} (resolved against {@code cwd}), else under {@code fallback}. */
    public StorageOptions options(Path cwd, Path fallback) {
        if (!offHeap) {
            return StorageOptions.HEAP;
        }
        return new StorageOptions(true, memoryBytes, dir != null ? cwd.resolve(dir).normalize() : fallback);
    }

    /** {@code memory} as written in the resolved configuration. */
    public String memoryText() {
        return memoryBytes == StorageOptions.AUTO ? "auto" : memoryBytes == StorageOptions.UNLIMITED ? "unlimited"
                : Sizes.format(memoryBytes);
    }
}
