package org.tebaldi.bench.workload.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One client's JDBC connection as a {@link SqlTxn} sees it: the connection (autocommit, read-only and isolation
 * already set for the transaction by the runner) and a cache of its prepared statements. Used by one thread at a
 * time; a transaction must neither commit nor roll back by itself.
 */
public interface SqlSession {
    /** The connection, search path set to the workload's schema. */
    Connection connection();

    /**
     * The prepared statement for {@code sql}, prepared once per connection and reused (parameters are cleared by
     * setting them again).
     *
     * @throws SQLException if the server rejects the statement
     */
    PreparedStatement prepare(String sql) throws SQLException;
}
