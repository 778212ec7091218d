package org.tebaldi.bench.tpcc;

import java.util.List;
import java.util.function.BiConsumer;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.Version;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * The latest committed rows of an in-JVM cluster (simulated or embedded), read straight from the data servers'
 * stores after a run — what {@link TpccConsistency} checks. A replicated table is read at data server 0.
 */
public final class ClusterTables implements TpccConsistency.TableScan {
    private final Catalog catalog;
    private final Cluster cluster;

    public ClusterTables(Catalog catalog, Cluster cluster) {
        this.catalog = catalog;
        this.cluster = cluster;
    }

    /** The latest committed row of {@code key}; null if absent or deleted. */
    public Row get(Key key) {
        TableSchema t = catalog.table(key.table());
        int ds = t.replicated() ? 0 : cluster.config().partitioner().partition(key);
        return cluster.dataServers().get(ds).store().latestCommittedRow(key);
    }

    @Override
    public void forEach(int tableId, BiConsumer<Key, Row> visitor) {
        boolean replicated = catalog.table(tableId).replicated();
        List<DataServer> dss = replicated ? cluster.dataServers().subList(0, 1) : cluster.dataServers();
        for (DataServer d : dss) {
            d.store().forEach((k, chain) -> {
                if (k.table() == tableId) {
                    Version v = chain.latestCommitted();
                    if (v != null && v.value() != null) {
                        visitor.accept(k, v.value());
                    }
                }
            });
        }
    }
}
