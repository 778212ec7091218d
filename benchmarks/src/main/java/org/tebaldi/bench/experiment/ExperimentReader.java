package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.bench.config.Values;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.bench.workload.Workloads;
import org.tebaldi.bench.workload.sql.SqlWorkloads;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.config.Durations;
import org.tebaldi.core.tree.LoadedTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.server.durability.DurabilityOptions;

/**
 * Binds and validates an experiment document (overrides already applied) into an {@link Experiment}, key by key
 * in file order of importance: unknown keys, name, workload, tree, cluster, clients, warm-up ({@link WarmupSpec}),
 * duration, verify, treeOptions ({@link TreeOptions}), profile (applied before, {@link Profiles}), retry, seed,
 * output, profiler, autoconf, durability, storage ({@link StorageReader}). Defaults: cluster {mode: embedded,
 * transport: local, dataServers: 1, coordinators: 1, networkDelay: 50us, threads: 0, sessionTimeout: 15s and tls:
 * false (processes only, {@link ProcessKeys})}, warmup 0s, verify false (true means after, {@link VerifyMode}), retry {backoff: 1ms, maxBackoff: 50ms,
 * byMechanism: none}, seed 1, durability store rocksdb (simulated in mode simulated),
 * output results, profiler off ({@link ProfilerSpec#OFF}), autoconf {@link AutoconfSpec#DEFAULT}, target tebaldi
 * ({@link TargetReader}). Required: name, workload (with name), tree (unless target is postgresql), clients,
 * duration.
 */
final class ExperimentReader {
    private static final String NAME_PATTERN = "[A-Za-z0-9._-]+";

    private ExperimentReader() {
    }

    /**
     * @param file the experiment file (its folder resolves a relative tree path)
     * @param cwd  working directory (resolves {@code --set tree=...})
     * @throws ConfigException for the first problem found
     */
    static Experiment read(ObjectNode root, Locator loc, Path file, Path cwd) {
        Fields top = new Fields(root, "", loc);
        top.checkKnown(ExperimentSchema.TOP);
        String name = top.string("name", null, "tpcc-2pl");
        if (!name.matches(NAME_PATTERN)) {
            throw top.error("name", "'" + name + "' cannot name a run directory",
                    "use letters, digits, '.', '_' and '-' only, e.g. name: tpcc-2pl");
        }
        JsonNode w = top.required("workload", "{name: bank}");
        if (!w.isObject()) {
            throw top.error("workload", "expected a mapping with the workload's name and options, found "
                    + Values.describe(w), "write e.g. workload: {name: " + firstWorkload() + "}");
        }
        String workloadName = new Fields((ObjectNode) w, "workload", loc).string("name", null, firstWorkload());
        WorkloadOptions options = new WorkloadOptions(workloadName, (ObjectNode) w, loc);
        Workload workload = Workloads.create(options);
        Path dir = file.getParent() == null ? Path.of("") : file.getParent();
        TargetSpec target = TargetReader.read(top);
        if (target.isPostgresql() && workload instanceof org.tebaldi.bench.workload.ExecutionModes) {
            throw top.error("workload.execution", "PostgreSQL runs the workload's SQL transactions; execution and "
                    + "roundTrips choose how Tebaldi's client runs its transaction types",
                    "remove workload.execution and workload.roundTrips, or use target: tebaldi");
        }
        if (target.isPostgresql() && SqlWorkloads.bind(workload) == null) {
            throw top.error("target", "workload '" + workload.name() + "' has no SQL implementation to run on "
                    + "PostgreSQL", "use target: tebaldi, or a workload with one: "
                    + String.join(", ", SqlWorkloads.supported()));
        }
        // PostgreSQL needs no CC tree; a tree given anyway is still validated (so --set target=... switches freely).
        JsonNode treeNode = target.isPostgresql() ? root.get("tree") : top.required("tree", "../trees/2pl.yaml");
        TreeResolver.Resolved tree = treeNode == null ? new TreeResolver.Resolved(null, null)
                : TreeResolver.resolve(treeNode, loc, dir, cwd, workload.database());
        Map<String, Map<String, Object>> treeOptions = TreeOptions.read(top);
        LoadedTree loadedTree = TreeOptions.apply(treeOptions, tree.tree(), TreeContext.of(workload.database()), top);
        String profile = top.string("profile", Profiles.NONE, "dissertation");
        ClusterSpec cluster = cluster(top.section("cluster", "{mode: embedded, dataServers: 2}"), dir, cwd);
        int clients = top.intNumber("clients", null, 1, "50");
        WarmupSpec warmup = warmup(top);
        long duration = top.duration("duration", null, true, "30s");
        VerifyMode verify = verifyMode(top);
        RetrySpec retry = retry(top.section("retry", "{backoff: 1ms, maxBackoff: 50ms}"));
        long seed = top.number("seed", 1L, Long.MIN_VALUE, "1");
        String output = top.path("output", "results", "results");
        ProfilerSpec profiler = profiler(top.section("profiler", "{enabled: true, window: 1s}"));
        AutoconfSpec autoconf = autoconf(top.section("autoconf", "{mechanisms: [rp, tso], measure: 2s}"));
        DurabilitySpec durability = durability(top.section("durability", "{enabled: true, epoch: 1s}"),
                cluster.simulated());
        StorageSpec storage = StorageReader.read(top, cluster.mode());
        if ((verify == VerifyMode.PROCESS || verify == VerifyMode.STREAMED)
                && (!cluster.mode().equals("embedded") || target.isPostgresql())) {
            throw top.error("verify", "verify: " + verify.key() + " checks the history of a cluster in the run's own "
                    + "JVM; " + (target.isPostgresql() ? "target postgresql has no history"
                    : "a " + cluster.mode() + " cluster's history is checked after the run"),
                    "use verify: true (after the run), or run mode embedded");
        }
        if (cluster.simulated() && durability.enabled() && cluster.simulation().costs().logStore() == null) {
            throw top.error("durability.enabled", "the cost table " + cluster.simulation().costsFile() + " has no "
                    + "log-store costs, which the simulated cluster charges for durability (docs/simulation.md, "
                    + "\"Durability\")", "run scripts/tebaldi calibrate-durability --table "
                    + cluster.simulation().costsFile() + ", or set durability.enabled: false");
        }
        if (cluster.mode().equals("processes") && durability.enabled()
                && (durability.writeLatencyMicros() > 0 || durability.memory())) {
            throw top.error(durability.memory() ? "durability.store" : "durability.writeLatency",
                    "node processes keep their logs in RocksDB without an injected latency",
                    "run mode embedded for durability.writeLatency and store: memory");
        }
        if (cluster.replicas() > 1 && !durability.enabled()) {
            throw top.error("cluster.replication", "replication ships each data server's log to its backups, and a "
                    + "backup is promoted by recovering from that log: it needs durability on",
                    "add durability: {enabled: true} (sync: true makes every commit reply wait for the backups), "
                            + "or remove cluster.replication");
        }
        if (cluster.replicas() > 1 && cluster.simulated()) {
            throw top.error("cluster.replication", "the simulated cluster models its stores' costs, not their "
                    + "contents, and replication ships the durable log (docs/simulation.md, \"Durability\")",
                    "run mode embedded or processes, or remove cluster.replication");
        }
        if (cluster.placement() != null) {
            try {
                cluster.partitioner(workload.database().catalog(), null);
            } catch (IllegalArgumentException x) {
                throw top.error("cluster.placement", x.getMessage(), "write the placement with 'scripts/tebaldi "
                        + "partition EXPERIMENT.yaml --out FILE' for this workload and cluster, or remove placement");
            }
        }
        return new Experiment(file, name, workload, options.resolved(), tree.ref(), loadedTree, cluster, clients,
                warmup, duration, verify, retry, seed, output, profiler, autoconf, target, durability, storage,
                profile.equals(Profiles.NONE) ? null : profile, treeOptions);
    }

    /**
     * {@code verify}: true (= after), false (= off), or one of off, after, process, streamed; process and streamed
     * only where the run's JVM holds the cluster (embedded mode).
     */
    private static VerifyMode verifyMode(Fields top) {
        JsonNode v = top.node().get("verify");
        if (v == null || v.isBoolean()) {
            return top.bool("verify", false) ? VerifyMode.AFTER : VerifyMode.OFF;
        }
        for (VerifyMode m : VerifyMode.values()) {
            if (v.isTextual() && m.key().equals(v.asText().toLowerCase(java.util.Locale.ROOT))) {
                return m;
            }
        }
        throw top.error("verify", "expected true, false, after, process, streamed or off, found "
                + org.tebaldi.bench.config.Values.describe(v), "write e.g. verify: true (checked after the run from a "
                + "spill), verify: process (a low-priority checker process) or verify: streamed (in the run's JVM)");
    }

    private static ClusterSpec cluster(Fields c, Path dir, Path cwd) {
        c.checkKnown(ExperimentSchema.CLUSTER);
        String mode = c.choice("mode", "embedded", List.of("embedded", "processes", "simulated"));
        boolean processes = mode.equals("processes");
        String transport = c.choice("transport", processes ? "netty" : "local", List.of("local", "netty"));
        if (processes && !transport.equals("netty")) {
            throw c.error("transport", "mode processes runs one JVM per node and needs the netty transport",
                    "use transport: netty (or leave it out)");
        }
        if (!processes && transport.equals("netty")) {
            throw c.error("transport", "transport netty connects node processes; embedded mode runs every node in "
                    + "one JVM", "use mode: processes with transport: netty, or transport: local");
        }
        int dataServers = c.intNumber("dataServers", 1, 1, "2");
        int coordinators = c.intNumber("coordinators", 1, 1, "2");
        long delay = c.duration("networkDelay", "50us", false, "50us");
        int threads = c.intNumber("threads", 0, 0, "0");
        boolean batching = c.bool("batching", true);
        if (c.node().has("simulation") && !mode.equals("simulated")) {
            throw c.error("simulation", "only mode simulated uses a simulation section (this cluster runs " + mode + ")",
                    "add mode: simulated, or remove the simulation section");
        }
        SimulationSpec sim = mode.equals("simulated")
                ? SimulationReader.read(c.section("simulation", "{machines: 20, coresPerMachine: 20}"), dir, cwd, delay)
                : null;
        if (c.node().has("bind") && !processes) {
            throw c.error("bind", "only mode processes listens on a network interface (this cluster runs " + mode
                    + ")", "add mode: processes, or remove bind");
        }
        String bind = c.string("bind", ClusterSpec.LOOPBACK, ClusterSpec.LOOPBACK);
        if (!BindAddress.isLocal(bind)) {
            throw c.error("bind", "'" + bind + "' is not an address of this machine",
                    "use 127.0.0.1 (loopback, the default), 0.0.0.0 (every interface) or one of this machine's "
                            + "addresses");
        }
        long session = ProcessKeys.sessionTimeout(c, processes);
        boolean tls = ProcessKeys.tls(c, processes);
        org.tebaldi.server.node.CommitProtocol commit = org.tebaldi.server.node.CommitProtocol.parse(
                c.choice("commit", "2pc", List.of("2pc", "epoch")));
        if (c.node().has("epoch") && commit != org.tebaldi.server.node.CommitProtocol.EPOCH) {
            throw c.error("epoch", "only commit: epoch has commit epochs (this cluster commits with 2pc)",
                    "add commit: epoch, or remove epoch");
        }
        long epoch = c.duration("epoch", "10ms", true, "10ms");
        String placement = c.path("placement", "none", "placement.json");
        if ("none".equals(placement)) {
            placement = null; // placement: none — the default partitioner (tebaldi partition profiles with it)
        }
        boolean hashPlacement = "hash".equals(placement); // placement: hash — whole-key hashing, no affinity
        if (hashPlacement && processes) {
            throw c.error("placement", "placement: hash is built by embedded and simulated clusters only (node "
                    + "processes build the workload's partitioner)", "use mode: embedded or simulated, or remove "
                    + "placement");
        }
        if (hashPlacement) {
            placement = null;
        }
        if (placement != null && processes) {
            throw c.error("placement", "a placement is loaded by embedded and simulated clusters only (node processes "
                    + "build the workload's partitioner)", "use mode: embedded or simulated, or remove placement");
        }
        Path placementFile = placement == null ? null : dir.resolve(placement).normalize(); // beside the experiment
        int replicas = 1;
        org.tebaldi.server.replica.ReplicationOptions.Mode rmode = org.tebaldi.server.replica.ReplicationOptions.Mode.SYNC;
        boolean autoFailover = true;
        boolean fencing = true;
        org.tebaldi.server.replica.ReplicationOptions.Reads reads =
                org.tebaldi.server.replica.ReplicationOptions.Reads.PRIMARY;
        if (c.node().has("replication")) {
            Fields r = c.section("replication", "{factor: 3, mode: sync}");
            r.checkKnown(ExperimentSchema.REPLICATION);
            replicas = r.intNumber("factor", 1, 1, "3");
            if (replicas > dataServers) {
                throw r.error("factor", "replication factor " + replicas + " needs at least " + replicas
                        + " data servers (each copy of a partition lives on a different one); this cluster has "
                        + dataServers, "set dataServers: " + replicas + " or more, or a smaller factor");
            }
            rmode = org.tebaldi.server.replica.ReplicationOptions.mode(r.choice("mode", "sync",
                    List.of("sync", "async")));
            autoFailover = "auto".equals(r.choice("failover", "auto", List.of("auto", "manual")));
            // YAML 1.1 reads an unquoted off as false: take it as the word
            fencing = r.node().path("fencing").isBoolean() ? r.node().get("fencing").asBoolean()
                    : "lease".equals(r.choice("fencing", "lease", List.of("lease", "off")));
            reads = org.tebaldi.server.replica.ReplicationOptions.reads(r.choice("reads", "primary",
                    List.of("primary", "nearest")));
            if (reads == org.tebaldi.server.replica.ReplicationOptions.Reads.NEAREST && replicas < 2) {
                throw r.error("reads", "reads: nearest sends read-only snapshot reads to the nearest copy of a "
                        + "partition, and with factor " + replicas + " the primary is the only copy",
                        "set factor: 2 or more, or remove reads");
            }
        }
        return new ClusterSpec(mode, transport, dataServers, coordinators, delay, threads, batching, sim, bind,
                session, commit, epoch, replicas, rmode, reads, placementFile, autoFailover, fencing, hashPlacement,
                tls);
    }

    private static DurabilitySpec durability(Fields d, boolean simulatedMode) {
        d.checkKnown(ExperimentSchema.DURABILITY);
        boolean enabled = d.bool("enabled", false);
        String dir = d.path("dir", "", "data/tebaldi");
        long epoch = d.duration("epoch", "1s", true, "1s");
        boolean sync = d.bool("sync", false);
        long latency = d.duration("writeLatency", "0s", false, "500us");
        if (latency > DurabilityOptions.MAX_WRITE_LATENCY_MICROS) {
            throw d.error("writeLatency", "must be at most 10s, found " + Durations.format(latency),
                    "write e.g. writeLatency: 500us (COCO Fig 11 sweeps 1us .. 2ms)");
        }
        String store = d.choice("store", simulatedMode ? "simulated" : "rocksdb",
                List.of("rocksdb", "memory", "simulated"));
        if (simulatedMode != store.equals("simulated")) {
            throw d.error("store", simulatedMode ? "the simulated cluster models its stores (docs/simulation.md, "
                    + "\"Durability\"); store: " + store + " is a real store" : "store: simulated is the simulated "
                    + "cluster's modelled store", simulatedMode ? "use store: simulated (the default there), or run "
                    + "mode embedded" : "use store: rocksdb or memory, or run mode simulated");
        }
        if (!store.equals("rocksdb") && !dir.isEmpty()) {
            throw d.error("dir", (simulatedMode ? "the simulated cluster's stores" : "in-memory stores (store: memory)")
                    + " keep nothing on disk", "leave durability.dir out" + (simulatedMode ? "" : ", or use store: "
                    + "rocksdb"));
        }
        return new DurabilitySpec(enabled, dir.isEmpty() ? null : dir, epoch, sync, latency, store.equals("memory"),
                simulatedMode);
    }

    /**
     * {@code warmup}: a duration (a fixed warm-up, default 0s) or a mapping {@code {min, max}} (at least {@code min},
     * default 0s, then until throughput settles, at most {@code max}, required, above {@code min} and at least the
     * settle test's window of {@value org.tebaldi.bench.driver.SettleWatch#WINDOW} one-second samples).
     */
    private static WarmupSpec warmup(Fields top) {
        com.fasterxml.jackson.databind.JsonNode v = top.node().get("warmup");
        if (v == null || v.isNumber() || v.isTextual()) {
            return WarmupSpec.fixed(top.duration("warmup", "0s", false, "5s"));
        }
        if (!v.isObject()) {
            throw top.error("warmup", "expected a duration (a fixed warm-up) or a mapping {min, max} (warm up until "
                    + "throughput settles), found " + Values.describe(v), "write e.g. warmup: 5s, or warmup: "
                    + "{min: 5s, max: 60s}");
        }
        Fields w = top.section("warmup", "{min: 5s, max: 60s}");
        w.checkKnown(ExperimentSchema.WARMUP);
        long min = w.duration("min", "0s", false, "5s");
        long max = w.duration("max", null, true, "60s");
        long window = org.tebaldi.bench.driver.SettleWatch.WINDOW * org.tebaldi.bench.driver.SettleWatch.SAMPLE_MICROS;
        if (max <= min) {
            throw w.error("max", "must be above min (" + Durations.format(min) + "), found " + Durations.format(max),
                    "raise max, or write a fixed warm-up as warmup: " + Durations.format(min));
        }
        if (max < window) {
            throw w.error("max", "must be at least " + Durations.format(window) + " (throughput has settled when "
                    + "its last " + org.tebaldi.bench.driver.SettleWatch.WINDOW + " one-second samples show no trend), "
                    + "found " + Durations.format(max), "write e.g. max: 60s");
        }
        return new WarmupSpec(min, max);
    }

    private static RetrySpec retry(Fields r) {
        r.checkKnown(ExperimentSchema.RETRY);
        long backoff = r.duration("backoff", "1ms", false, "1ms");
        long max = r.duration("maxBackoff", "50ms", false, "50ms");
        if (max < backoff) {
            throw r.error("maxBackoff", "must be at least backoff (" + Durations.format(backoff)
                    + "), found " + Durations.format(max), "raise maxBackoff or lower backoff");
        }
        Map<String, Long> by = new java.util.LinkedHashMap<>();
        if (r.node().has("byMechanism")) {
            Fields b = r.section("byMechanism", "{ssi: 5ms}");
            for (java.util.Iterator<String> it = b.node().fieldNames(); it.hasNext(); ) {
                String m = it.next();
                if (!org.tebaldi.core.cc.Mechanisms.all().containsKey(m)) {
                    throw b.error(m, "unknown mechanism '" + m + "'" + org.tebaldi.bench.config.Suggest.didYouMean(m,
                            org.tebaldi.core.cc.Mechanisms.all().keySet()), "use one of "
                            + String.join(", ", org.tebaldi.core.cc.Mechanisms.all().keySet()));
                }
                by.put(m, b.duration(m, null, false, "5ms"));
            }
        }
        return new RetrySpec(backoff, max, by);
    }

    private static ProfilerSpec profiler(Fields p) {
        p.checkKnown(ExperimentSchema.PROFILER);
        ProfilerSpec d = ProfilerSpec.OFF;
        return new ProfilerSpec(p.bool("enabled", d.enabled()), p.duration("window", "1s", true, "1s"),
                p.duration("flush", "20ms", true, "20ms"));
    }

    /** The tuning daemon's throughput sample period, µs. */
    private static final long SAMPLE = 100_000;

    private static AutoconfSpec autoconf(Fields a) {
        a.checkKnown(ExperimentSchema.AUTOCONF);
        AutoconfSpec d = AutoconfSpec.DEFAULT;
        List<String> mechanisms = a.choices("mechanisms", d.mechanisms(),
                List.copyOf(org.tebaldi.core.cc.Mechanisms.all().keySet()));
        long measure = a.duration("measure", "2s", true, "2s");
        long settleWindow = a.duration("settleWindow", "500ms", true, "500ms");
        int rounds = a.intNumber("rounds", d.rounds(), 3, "3");
        int maxRounds = a.intNumber("maxRounds", Math.max(d.maxRounds(), rounds), 3, "8");
        if (maxRounds < rounds) {
            throw a.error("maxRounds", "must be at least rounds (" + rounds + ")", "e.g. maxRounds: 8 with rounds: 3");
        }
        if (measure % SAMPLE != 0) {
            throw a.error("measure", "must be a multiple of the 100 ms sample period", "e.g. 2s");
        }
        if (settleWindow % SAMPLE != 0 || settleWindow < 3 * SAMPLE) {
            throw a.error("settleWindow", "must be a multiple of the 100 ms sample period and at least 300ms",
                    "e.g. 500ms");
        }
        return new AutoconfSpec(mechanisms, a.duration("analysis", "3s", true, "3s"), measure,
                a.duration("settle", "5s", false, "5s"), settleWindow,
                rounds, maxRounds,
                a.decimal("confidence", d.confidence(), 0.5, 0.999, "0.9"),
                a.intNumber("maxIterations", d.maxIterations(), 1, "8"),
                a.intNumber("maxCandidates", d.maxCandidates(), 1, "8"),
                a.intNumber("edgesPerIteration", d.edgesPerIteration(), 1, "3"),
                a.decimal("minGain", d.minGain(), 0, 10, "0.03"), a.decimal("minScore", d.minScore(), 0, 1e9, "100000"),
                a.choice("protocol", d.protocol(), List.of("online", "partial-restart")),
                a.duration("forceAbort", "200ms", false, "200ms"), a.duration("final", "10s", false, "10s"),
                a.bool("daemon", d.daemon()), a.decimal("drift", d.drift(), 0, 10, "0.15"));
    }

    private static String firstWorkload() {
        return Workloads.all().isEmpty() ? "bank" : Workloads.all().keySet().iterator().next();
    }
}
