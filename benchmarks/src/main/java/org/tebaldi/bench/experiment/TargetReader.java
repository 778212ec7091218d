package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.config.Values;

/**
 * Reads and validates the {@code target:} key and the {@code postgresql:} section of an experiment into a
 * {@link TargetSpec}. Every problem is one {@link org.tebaldi.core.config.ConfigException} at its place; the
 * local-server keys ({@code binDir}, {@code fsync}, {@code settings}) are refused together with {@code url}, since
 * they would be silently ignored.
 */
final class TargetReader {
    private static final String IDENT = "[a-z_][a-z0-9_]*";
    private static final String SETTING = "[a-z_][a-z0-9_.]*";
    /** Settings of the local server that the run must control. */
    private static final List<String> RESERVED = List.of("port", "listen_addresses", "unix_socket_directories");

    private TargetReader() {
    }

    /** @throws org.tebaldi.core.config.ConfigException for the first problem */
    static TargetSpec read(Fields top) {
        String kind = top.choice("target", TargetSpec.TEBALDI, List.of(TargetSpec.TEBALDI, TargetSpec.POSTGRESQL));
        Fields p = top.section("postgresql", "{url: jdbc:postgresql://localhost:5432/bench, user: bench}");
        p.checkKnown(ExperimentSchema.POSTGRESQL);
        String url = p.node().has("url") ? p.string("url", null, "jdbc:postgresql://localhost:5432/bench") : null;
        if (url != null && !url.startsWith("jdbc:postgresql:")) {
            throw p.error("url", "'" + url + "' is not a PostgreSQL JDBC URL",
                    "write e.g. url: jdbc:postgresql://localhost:5432/bench, or leave url out for a local server");
        }
        String user = p.node().has("user") ? p.string("user", null, "bench") : null;
        String password = p.node().has("password") ? p.string("password", null, "secret") : null;
        String schema = p.string("schema", PostgresSpec.DEFAULT_SCHEMA, PostgresSpec.DEFAULT_SCHEMA);
        if (!schema.matches(IDENT) || schema.equals("public") || schema.startsWith("pg_")) {
            throw p.error("schema", "'" + schema + "' cannot be the benchmark's schema (it is dropped and re-created;"
                    + " it must be a plain lower-case identifier other than public and pg_*)",
                    "write e.g. schema: " + PostgresSpec.DEFAULT_SCHEMA);
        }
        if (url != null) {
            for (String localOnly : List.of("binDir", "fsync", "settings")) {
                if (p.node().has(localOnly)) {
                    throw p.error(localOnly, localOnly + " configures the local throw-away server, but url names a "
                            + "server to use", "remove " + localOnly + ", or remove url to run a local server");
                }
            }
        }
        String binDir = p.node().has("binDir") ? p.string("binDir", null, "/usr/lib/postgresql/15/bin") : null;
        boolean fsync = p.bool("fsync", false);
        Map<String, String> settings = settings(p);
        return new TargetSpec(kind, new PostgresSpec(url, user, password, schema, binDir, fsync, settings));
    }

    private static Map<String, String> settings(Fields p) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode s = p.node().get("settings");
        if (s == null) {
            return out;
        }
        if (!s.isObject()) {
            throw p.error("settings", "expected a mapping of postgresql.conf settings, found " + Values.describe(s),
                    "write e.g. settings: {shared_buffers: 4GB, max_pred_locks_per_transaction: 1024}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (!e.getKey().matches(SETTING)) {
                throw p.error("settings." + e.getKey(), "'" + e.getKey() + "' is not a postgresql.conf setting name",
                        "use lower-case names such as shared_buffers");
            }
            if (RESERVED.contains(e.getKey())) {
                throw p.error("settings." + e.getKey(), "the run sets " + e.getKey() + " itself (the throw-away "
                        + "server listens on a free loopback port)", "remove it from settings");
            }
            if (!v.isValueNode() || v.isNull()) {
                throw p.error("settings." + e.getKey(), "expected a single value, found " + Values.describe(v),
                        "write e.g. " + e.getKey() + ": 4GB");
            }
            String text = v.asText();
            if (text.indexOf('\n') >= 0 || text.indexOf('\'') >= 0) {
                throw p.error("settings." + e.getKey(), "a setting value may not contain quotes or line breaks",
                        "write the value plainly, e.g. 4GB");
            }
            out.put(e.getKey(), text);
        }
        return out;
    }
}
