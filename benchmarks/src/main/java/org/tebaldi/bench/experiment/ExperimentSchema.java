package org.tebaldi.bench.experiment;

import java.util.List;

/** The keys an experiment file may have (docs/experiments.md, "Writing an experiment"), by section, and the sections planned but not available. */
final class ExperimentSchema {
    static final List<String> TOP = List.of("name", "workload", "tree", "cluster", "clients", "warmup", "duration",
            "verify", "retry", "seed", "output", "profiler", "autoconf", "target", "postgresql", "durability",
            "storage", "profile", "treeOptions");
    static final List<String> CLUSTER = List.of("mode", "transport", "dataServers", "coordinators", "networkDelay",
            "threads", "batching", "simulation", "bind", "sessionTimeout", "commit", "epoch", "replication",
            "placement", "tls");
    static final List<String> REPLICATION = List.of("factor", "mode", "failover", "reads", "fencing");
    static final List<String> SIMULATION = List.of("machines", "coresPerMachine", "latency", "localLatency",
            "bandwidthGbps", "costs", "costMode", "serviceMachine", "groups", "groupLatency", "tsOpsPerSecond");
    static final List<String> LATENCY = List.of("min", "max");
    static final List<String> RETRY = List.of("backoff", "maxBackoff", "byMechanism");
    /** {@code warmup:} written as a mapping (a warm-up that ends when throughput settles, {@link WarmupSpec}). */
    static final List<String> WARMUP = List.of("min", "max");
    static final List<String> PROFILER = List.of("enabled", "window", "flush");
    static final List<String> AUTOCONF = List.of("mechanisms", "analysis", "measure", "settle", "settleWindow",
            "rounds", "maxRounds", "confidence", "maxIterations", "maxCandidates", "edgesPerIteration", "minGain",
            "minScore", "protocol", "forceAbort", "final", "daemon", "drift");
    static final List<String> POSTGRESQL = List.of("url", "user", "password", "schema", "binDir", "fsync",
            "settings");
    static final List<String> DURABILITY = List.of("enabled", "dir", "epoch", "sync", "writeLatency", "store");
    static final List<String> STORAGE = List.of("rows", "memory", "dir");
    /** Sections that later issues add; rejected for now with a clear message. */
    static final List<String> PLANNED = List.of();

    private ExperimentSchema() {
    }

    /** The keys of a section ({@code ""} for the top level), or null for sections with free-form keys. */
    static List<String> keysOf(String section) {
        return switch (section) {
            case "" -> TOP;
            case "cluster" -> CLUSTER;
            case "retry" -> RETRY;
            case "warmup" -> WARMUP;
            case "profiler" -> PROFILER;
            case "autoconf" -> AUTOCONF;
            case "postgresql" -> POSTGRESQL;
            case "durability" -> DURABILITY;
            case "storage" -> STORAGE;
            default -> null;
        };
    }

    /** The problem text for an unknown key. */
    static String unknownKeyProblem(String key, List<String> known) {
        if (PLANNED.contains(key) && known == TOP) {
            return "unknown key '" + key + "' ('" + key + "' is not available yet)";
        }
        return "unknown key '" + key + "'" + org.tebaldi.bench.config.Suggest.didYouMean(key, known);
    }
}
