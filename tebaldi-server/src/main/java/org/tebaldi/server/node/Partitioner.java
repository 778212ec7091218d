package org.tebaldi.server.node;

import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/** Maps a key to the data server (0..n-1) that holds it (docs/architecture.md, "Modules"). */
@FunctionalInterface
public interface Partitioner {
    int partition(Key key);

    /**
     * Whether {@code key} is in this partitioner's hot-record lookup table (a {@link Placement}'s hot keys, Zamanian
     * et al. SIGMOD 2020 §4.4), offered to mechanisms as {@link org.tebaldi.core.cc.HotRecords}. False by default.
     */
    default boolean hot(Key key) {
        return false;
    }

    /**
     * The default: a table's {@code partitionPart} key part modulo n (e.g. TPC-C's warehouse id), or a hash of
     * the whole key when the table has none. Replicated tables map to 0 (any server holds them).
     */
    static Partitioner byTable(Catalog catalog, int servers) {
        return key -> {
            TableSchema t = catalog.table(key.table());
            if (t.replicated()) {
                return 0;
            }
            if (t.partitionPart() >= 0) {
                return (int) Math.floorMod(key.part(t.partitionPart()), (long) servers);
            }
            return Math.floorMod(key.hashCode(), servers);
        };
    }

    /**
     * Hash placement ({@code cluster.placement: hash}): every table's rows spread over the servers by a hash of the
     * whole key, with no affinity (TPC-C's rows of one warehouse land on every server). Replicated tables map to 0.
     * The dissertation does not say how its rows were placed (docs/simulation.md, "Which difference moves the
     * ratio"); this is the placement a key-value store gives by default.
     */
    static Partitioner byKey(Catalog catalog, int servers) {
        return key -> catalog.table(key.table()).replicated() ? 0 : Math.floorMod(key.hashCode(), servers);
    }
}
