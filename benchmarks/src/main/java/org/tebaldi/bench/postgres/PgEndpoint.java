package org.tebaldi.bench.postgres;

/**
 * How to reach a PostgreSQL server.
 *
 * @param url         JDBC URL ({@code jdbc:postgresql://host:port/db})
 * @param user        user name, or null for pgjdbc's default
 * @param password    password, or null
 * @param description one line for the console, e.g. {@code local PostgreSQL 15.18 on 127.0.0.1:40123 (fsync off)}
 */
public record PgEndpoint(String url, String user, String password, String description) {
    @Override
    public String toString() {
        return description;
    }
}
