package org.tebaldi.server.zk;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The experiment configuration every node of a cluster reads from ZooKeeper ({@code config} znode, JSON) before
 * it builds its node: which workload defines the database (name and options, as in the experiment's
 * {@code workload:} section, resolved by the same factories on every node), how many coordinators and data
 * servers there are, whether to record the history, executor threads per node, and the coordinator's reply
 * timeout (process mode).
 *
 * @param workload          {@code name} plus every workload option (JSON scalars)
 * @param coordinators      number of TCs, at least 1
 * @param dataServers       number of DSs, at least 1
 * @param recordHistory     whether TCs and DSs record the history for verification
 * @param threads           the experiment's executor threads (0 = one per core), recorded as configured; node
 *                          processes do not use it (each runs its actors on its transport's one event-loop thread)
 * @param replyTimeoutMillis a TC aborts a transaction whose data-server request has had no reply for this long, ms
 *                          (0 = never; see {@code TransactionCoordinator#setReplyTimeout})
 * @param profileFlushMicros the profiler: TCs and DSs send blocking events to the monitor at least this often, µs
 *                          (0 = profiling off; see {@code ClusterConfig#withProfiling})
 * @param allServices       run every mechanism's service nodes, not only those the first tree needs (so a
 *                          reconfiguration may move to any mechanism)
 * @param opBatching        batched execution of stored procedures ({@code ClusterConfig#withOpBatching})
 * @param durable           whether durability is on (dissertation §4.5.4)
 * @param durabilityDir     the data servers' stores' parent directory (absolute), or null
 * @param epochMicros       GCP epoch length, µs
 * @param syncLog           synchronous mode
 */
public record ClusterManifest(Map<String, Object> workload, int coordinators, int dataServers, boolean recordHistory,
                              int threads, long replyTimeoutMillis, long profileFlushMicros, boolean allServices,
                              boolean opBatching, boolean durable, String durabilityDir, long epochMicros,
                              boolean syncLog) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Copies the workload options, keeping their order. @throws IllegalArgumentException on bad counts */
    public ClusterManifest {
        workload = new LinkedHashMap<>(workload);
        if (!(workload.get("name") instanceof String)) {
            throw new IllegalArgumentException("the manifest's workload has no name");
        }
        if (coordinators < 1 || dataServers < 1 || threads < 0 || replyTimeoutMillis < 0 || profileFlushMicros < 0) {
            throw new IllegalArgumentException("bad cluster manifest counts: " + coordinators + " coordinators, "
                    + dataServers + " data servers, " + threads + " threads, reply timeout " + replyTimeoutMillis);
        }
    }

    /** A manifest with the profiler off, only the tree's services, batched execution and no durability. */
    public ClusterManifest(Map<String, Object> workload, int coordinators, int dataServers, boolean recordHistory,
                           int threads, long replyTimeoutMillis) {
        this(workload, coordinators, dataServers, recordHistory, threads, replyTimeoutMillis, 0, false, true);
    }

    /** A manifest without durability. */
    public ClusterManifest(Map<String, Object> workload, int coordinators, int dataServers, boolean recordHistory,
                           int threads, long replyTimeoutMillis, long profileFlushMicros, boolean allServices,
                           boolean opBatching) {
        this(workload, coordinators, dataServers, recordHistory, threads, replyTimeoutMillis, profileFlushMicros,
                allServices, opBatching, false, null,
                org.tebaldi.server.durability.DurabilityOptions.DEFAULT_EPOCH_MICROS, false);
    }

    /** The same manifest with these durability settings (stores under RocksDB, at their directory). */
    public ClusterManifest withDurability(org.tebaldi.server.durability.DurabilityOptions d) {
        return new ClusterManifest(workload, coordinators, dataServers, recordHistory, threads, replyTimeoutMillis,
                profileFlushMicros, allServices, opBatching, d.enabled(),
                d.enabled() ? d.dir().toAbsolutePath().toString() : null, d.epochMicros(), d.sync());
    }

    /** The durability settings every node applies. */
    public org.tebaldi.server.durability.DurabilityOptions durability() {
        return durable ? org.tebaldi.server.durability.DurabilityOptions.rocksDb(java.nio.file.Path.of(durabilityDir),
                epochMicros, syncLog) : org.tebaldi.server.durability.DurabilityOptions.OFF;
    }

    /** The JSON stored in ZooKeeper. */
    public byte[] toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", workload);
        m.put("coordinators", coordinators);
        m.put("dataServers", dataServers);
        m.put("recordHistory", recordHistory);
        m.put("threads", threads);
        m.put("replyTimeoutMillis", replyTimeoutMillis);
        m.put("profileFlushMicros", profileFlushMicros);
        m.put("allServices", allServices);
        m.put("opBatching", opBatching);
        if (durable) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("dir", durabilityDir);
            d.put("epochMicros", epochMicros);
            d.put("sync", syncLog);
            m.put("durability", d);
        }
        try {
            return JSON.writeValueAsBytes(m);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Parses the stored JSON.
     *
     * @throws IllegalArgumentException if it is not a manifest
     */
    @SuppressWarnings("unchecked")
    public static ClusterManifest fromJson(byte[] json) {
        try {
            Map<String, Object> m = JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() {
            });
            Map<String, Object> d = (Map<String, Object>) m.get("durability");
            return new ClusterManifest((Map<String, Object>) m.get("workload"),
                    ((Number) m.get("coordinators")).intValue(), ((Number) m.get("dataServers")).intValue(),
                    (Boolean) m.get("recordHistory"), ((Number) m.get("threads")).intValue(),
                    ((Number) m.get("replyTimeoutMillis")).longValue(),
                    m.get("profileFlushMicros") == null ? 0 : ((Number) m.get("profileFlushMicros")).longValue(),
                    Boolean.TRUE.equals(m.get("allServices")), !Boolean.FALSE.equals(m.get("opBatching")),
                    d != null, d == null ? null : (String) d.get("dir"),
                    d == null ? org.tebaldi.server.durability.DurabilityOptions.DEFAULT_EPOCH_MICROS
                            : ((Number) d.get("epochMicros")).longValue(),
                    d != null && (Boolean) d.get("sync"));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a cluster manifest: " + e.getMessage(), e);
        }
    }
}
