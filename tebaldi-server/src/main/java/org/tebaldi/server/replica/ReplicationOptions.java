package org.tebaldi.server.replica;

import java.nio.file.Path;
import java.util.concurrent.Executor;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.server.durability.LogStore;
import org.tebaldi.server.durability.RocksLogStore;

/**
 * Primary-backup replication of the data servers' logs (experiment key {@code cluster.replication: {factor, mode}};
 * COCO, Lu et al. VLDB 2021, §4). Partition {@code p}'s backups are kept by the next {@code factor − 1} data servers
 * ({@code (p+1) % n, …}); see docs/mechanisms.md "Replication".
 *
 * @param factor copies of each partition (1 = off: nothing is shipped and the hot path is unchanged)
 * @param mode   {@link Mode#SYNC}: a data server votes yes only once its backups hold the transaction's prepared
 *               writes (2PC(sync)); {@link Mode#ASYNC}: writes are shipped without waiting, and only an epoch's end
 *               waits for the backups (Epoch(async))
 * @param stores opens the replica a backup keeps of a partition; null for RocksDB under the durability directory
 *               ({@link #replicaDir}); tests plug in memory stores
 * @param reads  where read-only snapshot reads go: {@link Reads#PRIMARY} (default) or {@link Reads#NEAREST}, the
 *               nearest copy holding the snapshot (docs/mechanisms.md "Replication", reads from the nearest replica)
 */
public record ReplicationOptions(int factor, Mode mode, Stores stores, Reads reads) {
    /** Where snapshot reads of read-only transactions go. */
    public enum Reads {
        PRIMARY, NEAREST
    }

    /** With {@code reads: primary}. */
    public ReplicationOptions(int factor, Mode mode, Stores stores) {
        this(factor, mode, stores, Reads.PRIMARY);
    }

    /** The same options with {@code reads}. */
    public ReplicationOptions withReads(Reads r) {
        return new ReplicationOptions(factor, mode, stores, r);
    }

    /** Whether backups keep applied views and read-only snapshot reads may go to the nearest copy. */
    public boolean nearestReads() {
        return enabled() && reads == Reads.NEAREST;
    }

    /** When a primary waits for its backups. */
    public enum Mode {
        SYNC, ASYNC
    }

    /** Opens the replica of {@code partition} kept at data server {@code host}. */
    @FunctionalInterface
    public interface Stores {
        /** @throws IllegalStateException with one clear message if the store cannot be opened */
        LogStore open(int partition, int host, Catalog catalog, Executor owner);
    }

    /** Replication off. */
    public static final ReplicationOptions OFF = new ReplicationOptions(1, Mode.SYNC, null);

    /** @throws IllegalArgumentException if {@code factor < 1} or the mode is null */
    public ReplicationOptions {
        if (factor < 1) {
            throw new IllegalArgumentException("replication factor must be >= 1, got " + factor);
        }
        if (mode == null) {
            throw new IllegalArgumentException("replication mode must be sync or async");
        }
        if (reads == null) {
            throw new IllegalArgumentException("replication reads must be primary or nearest");
        }
    }

    /** Whether anything is replicated. */
    public boolean enabled() {
        return factor > 1;
    }

    /** The data servers keeping partition {@code p}'s backups, first (promoted first) to last; n data servers. */
    public int[] backupsOf(int p, int n) {
        int[] b = new int[Math.min(factor, n) - 1];
        for (int i = 0; i < b.length; i++) {
            b[i] = (p + 1 + i) % n;
        }
        return b;
    }

    /** The directory of the RocksDB replica of {@code partition} kept at data server {@code host}. */
    public static Path replicaDir(Path durabilityDir, int partition, int host) {
        return durabilityDir.resolve("ds" + partition + "-replica-at-ds" + host);
    }

    /** The default store factory: RocksDB replicas under {@code durabilityDir}. */
    public static Stores rocksDb(Path durabilityDir) {
        return (p, host, catalog, owner) -> new RocksLogStore(replicaDir(durabilityDir, p, host), catalog, owner);
    }

    /**
     * In-memory replicas, one new store per (partition, host), for clusters whose own logs are in memory
     * ({@code durability.store: memory}): they survive nothing but the primary's death inside the same JVM.
     */
    public static Stores memory() {
        java.util.Map<Long, org.tebaldi.server.durability.MemoryLogStore> replicas =
                new java.util.concurrent.ConcurrentHashMap<>();
        return (p, host, catalog, owner) -> replicas.computeIfAbsent((long) p << 32 | host,
                k -> new org.tebaldi.server.durability.MemoryLogStore()).open(catalog, owner);
    }

    /**
     * Parses a {@code reads} value.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Reads reads(String s) {
        return switch (s) {
            case "primary" -> Reads.PRIMARY;
            case "nearest" -> Reads.NEAREST;
            default -> throw new IllegalArgumentException("unknown replication reads '" + s + "' (primary | nearest)");
        };
    }

    /** Whether data server {@code ds} holds a copy of partition {@code p} (its primary or a backup); n servers. */
    public boolean holds(int ds, int p, int n) {
        if (ds == p) {
            return true;
        }
        for (int b : backupsOf(p, n)) {
            if (b == ds) {
                return true;
            }
        }
        return false;
    }

    /**
     * Parses a mode name.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Mode mode(String s) {
        return switch (s) {
            case "sync" -> Mode.SYNC;
            case "async" -> Mode.ASYNC;
            default -> throw new IllegalArgumentException("unknown replication mode '" + s + "' (sync | async)");
        };
    }
}
