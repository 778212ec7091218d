package org.tebaldi.bench.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code postgresql:} section of an experiment (used with {@code target: postgresql}).
 *
 * <pre>
 * postgresql:
 *   url: jdbc:postgresql://db1:5432/bench   # a server to use; absent: a throw-away local server on loopback
 *   user: bench                             # default: the local server's superuser, else pgjdbc's default
 *   password: secret                        # never written to summary.json
 *   schema: tebaldi                         # dropped and re-created, then loaded (default tebaldi)
 *   binDir: /usr/lib/postgresql/15/bin      # local server: where initdb, pg_ctl, postgres are (default: found)
 *   fsync: false                            # local server: fsync, synchronous_commit, full_page_writes (false)
 *   settings: {shared_buffers: 4GB}         # local server: extra postgresql.conf settings
 * </pre>
 *
 * @param url      JDBC URL ({@code jdbc:postgresql:...}), or null for a local throw-away server
 * @param user     user name, or null for the default
 * @param password password, or null
 * @param schema   SQL schema the workload's tables are created in (a plain lower-case identifier)
 * @param binDir   directory of the local server's binaries, or null to look for them
 * @param fsync    whether the local server makes commits durable (Table 5.2 ran PostgreSQL with fsync off)
 * @param settings extra settings for the local server's postgresql.conf, in order
 */
public record PostgresSpec(String url, String user, String password, String schema, String binDir, boolean fsync,
                           Map<String, String> settings) {
    /** Default schema name. */
    public static final String DEFAULT_SCHEMA = "tebaldi";
    /** A local throw-away server, schema {@code tebaldi}, fsync off, no extra settings. */
    public static final PostgresSpec DEFAULT = new PostgresSpec(null, null, null, DEFAULT_SCHEMA, null, false,
            Map.of());

    /** Copies the settings, keeping their order. */
    public PostgresSpec {
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    /** True if no server was given: the run starts (and stops) a local throw-away server. */
    public boolean local() {
        return url == null;
    }
}
