package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.Durations;
import org.tebaldi.server.zk.ZkConnection;

/**
 * The keys of an experiment's {@code cluster:} section that only mode {@code processes} has (docs/cluster.md,
 * "Process mode" and "Security"): {@code sessionTimeout} and {@code tls}. Each is refused, with one message naming
 * the fix, in a cluster that runs in one JVM.
 */
final class ProcessKeys {
    private ProcessKeys() {
    }

    /** {@code cluster.sessionTimeout}, ms: processes mode only, 2 s to 10 min (default 15 s). */
    static long sessionTimeout(Fields c, boolean processes) {
        if (!c.node().has("sessionTimeout")) {
            return ZkConnection.DEFAULT_SESSION_MILLIS;
        }
        if (!processes) {
            throw c.error("sessionTimeout", "only mode processes has ZooKeeper sessions (this cluster runs in one JVM)",
                    "add mode: processes, or remove sessionTimeout");
        }
        long micros = c.duration("sessionTimeout", "15s", true, "15s");
        if (micros < ZkConnection.MIN_SESSION_MILLIS * 1000L || micros > ZkConnection.MAX_SESSION_MILLIS * 1000L) {
            throw c.error("sessionTimeout", "must be between " + ZkConnection.MIN_SESSION_MILLIS / 1000 + "s and "
                    + ZkConnection.MAX_SESSION_MILLIS / 60_000 + "m, found " + Durations.format(micros),
                    "write e.g. sessionTimeout: 15s (shorter detects a dead node sooner, longer survives longer "
                            + "pauses on a busy machine)");
        }
        return micros / 1000;
    }

    /**
     * {@code cluster.tls}: mutual TLS between the node processes (and the runner), with a CA and certificates
     * generated for the run; processes mode only, default false.
     */
    static boolean tls(Fields c, boolean processes) {
        JsonNode v = c.node().get("tls");
        if (v == null) {
            return false;
        }
        if (!v.isBoolean()) {
            throw c.error("tls", "expected true or false, found " + Values.describe(v), "write tls: true (mutual TLS "
                    + "between the node processes) or tls: false (the default: plain TCP)");
        }
        if (!processes && v.booleanValue()) {
            throw c.error("tls", "only mode processes has connections between nodes (this cluster runs in one JVM)",
                    "add mode: processes, or remove tls");
        }
        return v.booleanValue();
    }
}
