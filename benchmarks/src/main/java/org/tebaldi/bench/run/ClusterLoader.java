package org.tebaldi.bench.run;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.server.cluster.Cluster;

/**
 * Loads a workload's initial data into a cluster that it creates on the first {@link #load}, sized from the
 * {@link #expect} calls made before: expected keys per data server = rows of replicated tables + rows of the other
 * tables divided by the number of data servers. Used on the runner's thread only.
 */
public final class ClusterLoader implements DataLoader {
    private final Catalog catalog;
    private final int dataServers;
    private final IntFunction<Cluster> create;
    private final Map<String, Long> expected = new LinkedHashMap<>();
    private Cluster cluster;
    private long rows;

    /**
     * @param dataServers number of data servers of the cluster to create
     * @param create      creates the cluster given the expected keys per data server
     */
    public ClusterLoader(Catalog catalog, int dataServers, IntFunction<Cluster> create) {
        this.catalog = catalog;
        this.dataServers = dataServers;
        this.create = create;
    }

    @Override
    public void expect(String table, long count) {
        catalog.table(table);
        if (count < 0) {
            throw new IllegalArgumentException("expected rows of " + table + " must be >= 0, got " + count);
        }
        if (cluster == null) {
            expected.merge(table, count, Long::sum);
        }
    }

    @Override
    public void load(Key key, Row row) {
        if (row.table().id() != key.table()) {
            throw new IllegalArgumentException("row of table " + row.table().name() + " loaded at key " + key
                    + " of table " + catalog.table(key.table()).name());
        }
        cluster().load(key, row);
        rows++;
    }

    /** Rows loaded so far. */
    public long rows() {
        return rows;
    }

    /** The expected rows per table, as announced. */
    public Map<String, Long> expected() {
        return Map.copyOf(expected);
    }

    /** The cluster, created now if no row was loaded. */
    public Cluster finish() {
        return cluster();
    }

    private Cluster cluster() {
        if (cluster == null) {
            long perDs = 0;
            for (Map.Entry<String, Long> e : expected.entrySet()) {
                TableSchema t = catalog.table(e.getKey());
                perDs += t.replicated() ? e.getValue() : (e.getValue() + dataServers - 1) / dataServers;
            }
            cluster = create.apply((int) Math.min(perDs, 1 << 30));
        }
        return cluster;
    }
}
