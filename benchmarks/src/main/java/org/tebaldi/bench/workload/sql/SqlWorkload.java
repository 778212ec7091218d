package org.tebaldi.bench.workload.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.workload.ConsistencyResult;

/**
 * A workload's SQL implementation, for running it on a SQL database over JDBC ({@code target: postgresql},
 * dissertation Table 5.2's baseline) with the same data, inputs and closed-loop driver as on Tebaldi.
 *
 * <p>Tables come from the workload's catalog: one SQL table per catalog table, with the key parts as the
 * {@code NOT NULL} primary-key columns named by {@link #keyColumns()} followed by the catalog's columns (LONG as
 * {@code bigint}, DOUBLE as {@code double precision}, STRING as {@code text}, BYTES as {@code bytea}). The runner
 * creates and loads them from the workload's own loader, adds the primary keys, then runs {@link #setup()}.
 */
public interface SqlWorkload {
    /** SQL names of the key columns of every table, in key-part order, by table name. */
    Map<String, List<String>> keyColumns();

    /**
     * Statements run once after the data is loaded and the primary keys exist, in order, with the search path set
     * to the workload's schema: stored functions, secondary indexes.
     */
    List<String> setup();

    /**
     * Statements every client session runs once on its own connection, before its first transaction, in order
     * (e.g. planner settings that keep SERIALIZABLE's predicate locks fine-grained). None by default.
     */
    default List<String> sessionSetup() {
        return List.of();
    }

    /**
     * The SQL implementation of transaction type {@code type}.
     *
     * @throws IllegalArgumentException for a type the workload does not have
     */
    SqlTxn txn(String type);

    /**
     * Checks the workload's consistency conditions on the final state with SQL queries (run after the clients
     * stopped, on a connection whose search path is the workload's schema).
     *
     * @throws SQLException if a query fails
     */
    ConsistencyResult check(Connection connection) throws SQLException;
}
