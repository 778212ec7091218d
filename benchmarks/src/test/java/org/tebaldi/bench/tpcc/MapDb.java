package org.tebaldi.bench.tpcc;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/** A loaded TPC-C database in a hash map, for loader and consistency tests (no cluster). */
final class MapDb implements TpccConsistency.TableScan {
    final TpccBenchmark bench;
    final TpccSchema s;
    final Map<Key, Row> rows = new HashMap<>();

    MapDb(TpccConfig cfg) {
        this.bench = new TpccBenchmark(cfg);
        this.s = bench.schema();
        bench.loader(1_700_000_000_000L).load((k, r) -> {
            if (rows.put(k, r) != null) {
                throw new AssertionError("duplicate key " + k);
            }
        }, TpccLoader.Progress.NONE);
    }

    /** A small database: {@code w} warehouses, 50 items, 30 customers and 30 orders per district. */
    static MapDb small(int w) {
        return new MapDb(small(w, TpccMix.STANDARD));
    }

    static TpccConfig small(int w, TpccMix mix) {
        return new TpccConfig(w, 50, 30, 30, mix, 42L);
    }

    Row get(Key k) {
        return rows.get(k);
    }

    Row get(TableSchema t, long... key) {
        return rows.get(Key.of(t, key));
    }

    void put(TableSchema t, Row r, long... key) {
        rows.put(Key.of(t, key), r);
    }

    void remove(TableSchema t, long... key) {
        if (rows.remove(Key.of(t, key)) == null) {
            throw new AssertionError("no row " + t + java.util.Arrays.toString(key));
        }
    }

    long count(TableSchema t) {
        return rows.keySet().stream().filter(k -> k.table() == t.id()).count();
    }

    ConsistencyReport check() {
        return bench.consistency().check(rows::get, this);
    }

    @Override
    public void forEach(int tableId, BiConsumer<Key, Row> visitor) {
        rows.forEach((k, r) -> {
            if (k.table() == tableId) {
                visitor.accept(k, r);
            }
        });
    }
}
