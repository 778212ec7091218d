package org.tebaldi.bench.workload;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/** A {@link DatabaseSnapshot} over a map, for testing consistency checks. */
public final class MapSnapshot implements DatabaseSnapshot {
    private final Catalog catalog;
    public final Map<Key, Row> rows = new TreeMap<>();

    public MapSnapshot(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public Row get(Key key) {
        return rows.get(key);
    }

    @Override
    public void forEach(String table, BiConsumer<Key, Row> visitor) {
        int id = catalog.table(table).id();
        rows.forEach((k, r) -> {
            if (k.table() == id) {
                visitor.accept(k, r);
            }
        });
    }

    @Override
    public long count(String table) {
        int id = catalog.table(table).id();
        return rows.keySet().stream().filter(k -> k.table() == id).count();
    }
}
