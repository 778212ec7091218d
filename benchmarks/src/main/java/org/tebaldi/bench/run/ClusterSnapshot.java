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
 * The final state of a cluster for the workload's check: the latest committed, non-deleted version of every key (the
 * first store's copy for replicated tables). Over a stopped cluster's stores ({@link #of}) it reads them in place —
 * nothing is copied, so an hour of TPC-C (84 million keys, most of them on disk: docs/performance.md, "Long runs")
 * is checked within the heap the run had; each {@link #forEach} is one pass over the stores, and {@link #count}
 * counts every table in one pass the first time it is asked. Over rows already copied out of the data servers
 * (process mode, {@link #ofRows}) it reads those.
 */
public final class ClusterSnapshot implements DatabaseSnapshot {
    private final Catalog catalog;
    private final List<MultiVersionStore> stores;
    private final List<Map<Key, Row>> byTable;
    private long[] counts;

    private ClusterSnapshot(Catalog catalog, List<MultiVersionStore> stores, List<Map<Key, Row>> byTable) {
        this.catalog = catalog;
        this.stores = stores;
        this.byTable = byTable;
    }

    /**
     * The state held by {@code stores}, read in place. Use only when no node runs any more (the stores are not
     * thread-safe) and while the stores stay as they are.
     *
     * @param stores every data server's store
     */
    public static ClusterSnapshot of(Catalog catalog, List<MultiVersionStore> stores) {
        return new ClusterSnapshot(catalog, List.copyOf(stores), null);
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
        return new ClusterSnapshot(catalog, null, tables);
    }

    @Override
    public Row get(Key key) {
        if (byTable != null) {
            return byTable.get(key.table()).get(key);
        }
        for (MultiVersionStore s : stores) {
            Row r = s.latestCommittedRow(key); // null when absent or deleted there
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    @Override
    public void forEach(String table, BiConsumer<Key, Row> visitor) {
        int id = catalog.table(table).id();
        if (byTable != null) {
            byTable.get(id).forEach(visitor);
            return;
        }
        for (int i = 0; i < stores.size(); i++) {
            int at = i;
            stores.get(i).forEach((key, chain) -> {
                if (key.table() == id) {
                    Version v = chain.latestCommitted();
                    if (v != null && !v.deleted() && !inEarlierStore(at, key)) {
                        visitor.accept(key, v.value());
                    }
                }
            });
        }
    }

    /** Whether a store before the {@code i}-th holds a row of {@code key} (whose copy then counts). */
    private boolean inEarlierStore(int i, Key key) {
        for (int j = 0; j < i; j++) {
            if (stores.get(j).latestCommittedRow(key) != null) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long count(String table) {
        int id = catalog.table(table).id();
        if (byTable != null) {
            return byTable.get(id).size();
        }
        if (counts == null) {
            long[] n = new long[catalog.tables().size()];
            for (int i = 0; i < stores.size(); i++) {
                int at = i;
                stores.get(i).forEach((key, chain) -> {
                    Version v = chain.latestCommitted();
                    if (v != null && !v.deleted() && !inEarlierStore(at, key)) {
                        n[key.table()]++;
                    }
                });
            }
            counts = n;
        }
        return counts[id];
    }
}
