package org.tebaldi.server.process;

import java.util.Map;
import org.tebaldi.core.db.Database;
import org.tebaldi.server.node.Partitioner;

/**
 * Builds the database definition a node process serves from the manifest's {@code workload} section (the same
 * factories as the experiment runner, so every node and the runner agree on tables, types and partitioning).
 */
@FunctionalInterface
public interface WorkloadResolver {
    /** The database and partitioner of a workload. */
    record Resolved(Database database, Partitioner partitioner) {
    }

    /**
     * @param workload    {@code name} and options
     * @param dataServers number of data servers
     * @throws IllegalArgumentException (or a config exception) for an unknown workload or bad options
     */
    Resolved resolve(Map<String, Object> workload, int dataServers);
}
