package org.tebaldi.bench.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens JDBC connections (pgjdbc) to one server with the workload's schema as search path and every transaction
 * SERIALIZABLE (startup options {@code -c search_path=<schema> -c default_transaction_isolation=serializable}).
 */
final class PgConnections {
    private final PgEndpoint endpoint;
    private final String schema;

    /** @param schema the workload's schema (a plain identifier; it need not exist yet) */
    PgConnections(PgEndpoint endpoint, String schema) {
        this.endpoint = endpoint;
        this.schema = schema;
    }

    /** The server. */
    PgEndpoint endpoint() {
        return endpoint;
    }

    /** The schema. */
    String schema() {
        return schema;
    }

    /**
     * A new connection in autocommit mode at SERIALIZABLE isolation.
     *
     * @throws SQLException if the server cannot be reached or refuses the login
     */
    Connection open() throws SQLException {
        Properties p = new Properties();
        if (endpoint.user() != null) {
            p.setProperty("user", endpoint.user());
        }
        if (endpoint.password() != null) {
            p.setProperty("password", endpoint.password());
        }
        p.setProperty("ApplicationName", "tebaldi");
        p.setProperty("options", "-c search_path=" + schema + " -c default_transaction_isolation=serializable");
        p.setProperty("connectTimeout", "30");
        p.setProperty("tcpKeepAlive", "true");
        Connection c = DriverManager.getConnection(endpoint.url(), p);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        return c;
    }
}
