package org.tebaldi.bench.workload;

import java.util.function.BiConsumer;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * The final state of a run for {@link Workload#check}: the latest committed version of every key over all data
 * servers (deleted rows absent). Read-only.
 */
public interface DatabaseSnapshot {
    /** The latest committed row of {@code key}, or null if absent or deleted. */
    Row get(Key key);

    /**
     * Visits every row of a table, in no particular order.
     *
     * @throws IllegalArgumentException for an unknown table
     */
    void forEach(String table, BiConsumer<Key, Row> visitor);

    /**
     * Number of rows of a table.
     *
     * @throws IllegalArgumentException for an unknown table
     */
    long count(String table);
}
