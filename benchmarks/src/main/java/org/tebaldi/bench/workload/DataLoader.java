package org.tebaldi.bench.workload;

import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/** Where a {@link Workload} writes its initial data (committed versions written by the initial transaction T0). */
public interface DataLoader {
    /**
     * Announces how many rows a table will get, before its rows are loaded; used to size the data servers' stores
     * and as the progress total. Call it for every table before the first {@link #load}; later calls are ignored
     * for sizing.
     *
     * @param table a table name of the workload's catalog
     * @param rows  expected number of rows (at least 0)
     * @throws IllegalArgumentException for an unknown table or a negative count
     */
    void expect(String table, long rows);

    /**
     * Loads one row into the data server(s) that own its key (every server for a replicated table).
     *
     * @throws IllegalArgumentException if the row belongs to another table than the key
     */
    void load(Key key, Row row);
}
