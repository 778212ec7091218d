package org.tebaldi.bench.run;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.storage.MultiVersionStore;
import org.tebaldi.core.storage.Version;

/**
 * A {@link DatabaseSnapshot} copied from the data servers' stores once the cluster stopped: the latest committed,
 * non-deleted version of every key (the first store's copy for replicated tables).
 */
public final class ClusterSnapshot implements DatabaseSnapshot {
    private final Catalog catalog;
    private final List<Map<Key, Row>> byTable;

    private ClusterSnapshot(Catalog catalog, List<Map<Key, Row>> byTable) {
        this.catalog = catalog;
        this.byTable = byTable;
    }

    /**
     * Copies the stores. Call only when no node runs any more (the stores are not thread-safe).
     *
     * @param stores every data server's store
     */
    public static ClusterSnapshot of(Catalog catalog, List<MultiVersionStore> stores) {
        List<Map<Key, Row>> tables = catalog.tables().stream().map(t -> (Map<Key, Row>) new HashMap<Key, Row>())
                .toList();
        for (MultiVersionStore s : stores) {
            s.forEach((key, chain) -> {
                Version v = chain.latestCommitted();
                if (v != null && !v.deleted()) {
                    tables.get(key.table()).putIfAbsent(key, v.value());
                }
            });
        }
        return new ClusterSnapshot(catalog, tables);
    }

    /**
     * A snapshot from rows already copied out of the data servers (process mode: each server's latest committed
     * row per key, as collected over the network); the first map's copy wins for replicated tables.
     */
    public static ClusterSnapshot ofRows(Catalog catalog, List<Map<Key, Row>> servers) {
        List<Map<Key, Row>> tables = catalog.tables().stream().map(t -> (Map<Key, Row>) new HashMap<Key, Row>())
                .toList();
        for (Map<Key, Row> s : servers) {
            s.forEach((key, row) -> tables.get(key.table()).putIfAbsent(key, row));
        }
        return new ClusterSnapshot(catalog, tables);
    }

    @Override
    public Row get(Key key) {
        return byTable.get(key.table()).get(key);
    }

    @Override
    public void forEach(String table, BiConsumer<Key, Row> visitor) {
        byTable.get(catalog.table(table).id()).forEach(visitor);
    }

    @Override
    public long count(String table) {
        return byTable.get(catalog.table(table).id()).size();
    }
}
