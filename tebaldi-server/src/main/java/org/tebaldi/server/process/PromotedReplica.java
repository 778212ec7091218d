package org.tebaldi.server.process;

import org.tebaldi.server.node.ClusterConfig;

/**
 * The store a promoted data server opens in process mode (docs/mechanisms.md, "Replication"): the RocksDB replica
 * its first live backup kept of the failed primary's log, handed to the data server's durability feature in place
 * of its own store.
 */
final class PromotedReplica {
    private PromotedReplica() {
    }

    /**
     * The replica of partition {@code p} kept by data server {@code host}, for a promoted data server: its RocksDB
     * directory is opened once the backup closed it (it does when it sees the primary fail), retried for 30 s.
     *
     * @throws IllegalStateException if replication is off or the replica cannot be opened in time
     */
    static org.tebaldi.server.durability.LogStore.Factory store(ClusterConfig cfg, int p, int host) {
        if (!cfg.replication().enabled()) {
            throw new IllegalStateException("--promote-from needs replication on (cluster.replication.factor >= 2)");
        }
        java.nio.file.Path dir = org.tebaldi.server.replica.ReplicationOptions.replicaDir(cfg.durability().dir(), p,
                host);
        return (ds, catalog, owner) -> {
            long end = System.nanoTime() + 30_000_000_000L;
            while (true) {
                try {
                    return new org.tebaldi.server.durability.RocksLogStore(dir, catalog, owner);
                } catch (IllegalStateException e) {
                    if (System.nanoTime() > end) {
                        throw e;
                    }
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException x) {
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                }
            }
        };
    }
}
