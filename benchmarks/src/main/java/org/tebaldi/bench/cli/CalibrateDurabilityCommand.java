package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.experiment.SweepPoint;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.LogStoreCalibration;
import org.tebaldi.bench.run.MessageSizes;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.run.SyncProbe;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.HandlerCost;
import org.tebaldi.core.runtime.cost.HandlerProfile;
import org.tebaldi.core.runtime.cost.HostIdentity;
import org.tebaldi.core.runtime.cost.LogStoreCosts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi calibrate-durability [--table FILE] [--warmup 20s] [--duration 8s] [--syncs 200] [--set K=V]...
 * [EXPERIMENT.yaml ...]} (docs/simulation.md, "Durability"): measures what durability costs on this machine and adds
 * it to an existing cost table, so that {@code cluster.mode: simulated} can run with {@code durability.enabled: true}.
 * Runs each experiment in embedded mode with durability on (RocksDB stores in a temporary folder, verification off;
 * one unmeasured JIT warm-up run per workload first) and, over each measured window, profiles the stores' writer
 * threads ({@link LogStoreCalibration}) and times the nodes' handlers; then measures a sync ({@link SyncProbe}).
 * Writes the table's {@code logStore} section — writer CPU per group and per record (least squares over the
 * unsynced groups, {@link HandlerCost#fit}), the sync's extra time (synced minus unsynced RocksDB write, medians),
 * the durable costs of the handlers that log ({@link LogStoreCosts#LOGGING_HANDLERS}: units = records logged) —
 * and adds the handler keys of the durability protocol's messages ({@link #DURABILITY_MESSAGES}, e.g.
 * {@code tc Persisted}, {@code ds Callback}) and of timer tasks of a reported kind (e.g.
 * {@code ds timer/lock-timeout}, {@code HandlerUnits#kind}: TPC-C 2PL's lock waits time out in these runs) the table
 * lacks, with their message sizes, scaled to the table's times ({@link #scale}: a busy machine runs
 * every handler slower); every key the table has keeps its calibrated cost (the ones durability makes dearer are
 * printed, not changed). Without files: {@link #DEFAULTS} at {@link #DEFAULT_CLIENTS}.
 * Bad input prints one message and exits {@value ExitCodes#CONFIG}; a failed run {@value ExitCodes#RUN_FAILED};
 * nothing is written unless everything succeeded.
 */
@Command(name = "calibrate-durability", description = "Measure the durability protocol's costs on this machine "
        + "(RocksDB writer CPU, sync time, durability messages' handlers) and add them to a cost table.")
final class CalibrateDurabilityCommand implements Callable<Integer> {
    /** The experiments run when none is named, relative to the repository root. */
    static final List<String> DEFAULTS = List.of("config/experiments/tpcc-2pl.yaml",
            "config/experiments/tpcc-tebaldi-3layer.yaml");
    /** The durability protocol's messages (simple names): the handler keys and sizes this command adds. */
    static final java.util.Set<String> DURABILITY_MESSAGES = java.util.Set.of(
            org.tebaldi.server.msg.Durable.Persisted.class.getSimpleName(),
            org.tebaldi.server.msg.Durable.Txns.class.getSimpleName(),
            org.tebaldi.server.msg.Durable.Ack.class.getSimpleName(),
            org.tebaldi.server.durability.LogStore.Callback.class.getSimpleName());
    /** Two loads, so that groups of different sizes are seen. */
    static final String DEFAULT_CLIENTS = "clients=[50,200]";

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "EXPERIMENT.yaml", description = "experiments to run (embedded mode; "
            + "default: TPC-C 2PL and three-layer)")
    List<Path> experiments = new ArrayList<>();

    @Option(names = "--table", paramLabel = "FILE", description = "the cost table to add to (default: "
            + CalibrateCommand.DEFAULT_OUT + ")")
    Path table;

    @Option(names = "--warmup", paramLabel = "DURATION", description = "warm-up of each run (default: "
            + CalibrateCommand.DEFAULT_WARMUP + ", as calibrate's)")
    String warmup = CalibrateCommand.DEFAULT_WARMUP;

    @Option(names = "--duration", paramLabel = "DURATION", description = "measured window of each run (default: 8s)")
    String duration = "8s";

    @Option(names = "--syncs", paramLabel = "N", description = "rounds of the sync measurement (default: 200)")
    int syncs = 200;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a field of every experiment")
    List<String> extraSets = new ArrayList<>();

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path cwd = Path.of("").toAbsolutePath();
        String home = System.getProperty(RunDirectory.HOME_PROPERTY);
        Path root = home != null && !home.isBlank() ? Path.of(home) : cwd;
        Path file = table != null ? table : root.resolve(CalibrateCommand.DEFAULT_OUT);
        CostTable t;
        List<Experiment> es = new ArrayList<>();
        try {
            if (syncs < 10) {
                throw new ConfigException("--syncs", 0, "", "at least 10 rounds are needed for a median",
                        "write e.g. --syncs 200");
            }
            t = CostTable.read(file);
            List<String> sets = new ArrayList<>();
            if (experiments.isEmpty() && extraSets.stream().noneMatch(x -> x.startsWith("clients="))) {
                sets.add(DEFAULT_CLIENTS);
            }
            sets.addAll(extraSets);
            sets.addAll(List.of("warmup=" + warmup, "duration=" + duration, "verify=false", "durability.enabled=true",
                    "cluster.mode=embedded"));
            List<Path> files = experiments.isEmpty() ? DEFAULTS.stream().map(root::resolve).toList() : experiments;
            for (Path f : files) {
                for (SweepPoint p : ExperimentLoader.loadSweep(List.of(f), sets, cwd).points()) {
                    es.add(p.experiment());
                }
            }
        } catch (ConfigException x) {
            err.println(x.getMessage());
            err.flush();
            return ExitCodes.CONFIG;
        }
        HandlerProfile.Sums groups = new HandlerProfile.Sums();
        Map<String, HandlerProfile.Sums> handlers = HandlerProfile.newTotals();
        MessageSizes sizes = new MessageSizes(CodecRegistry.classPath());
        long syncGroups = 0;
        List<String> runs = new ArrayList<>();
        java.util.Set<String> warmed = new java.util.HashSet<>();
        String workload = es.get(0).workload().name();
        out.println("calibrating durability with " + es.size() + " run(s): " + warmup + " warm-up, " + duration
                + " measured each");
        out.flush();
        for (Experiment e : es) {
            LogStoreCalibration cal = new LogStoreCalibration();
            RunResult r;
            try {
                if (warmed.add(e.workload().name())) {
                    out.printf("%-22s (JIT warm-up run, not measured)%n", e.name());
                    out.flush();
                    new ExperimentRun(e, new RunListener() { }).run();
                }
                r = new ExperimentRun(e, new RunListener() { }, cal).run();
            } catch (RunFailedException | IllegalStateException x) {
                err.println("run failed: " + e.name() + ": " + x.getMessage() + " (nothing written)");
                err.flush();
                return ExitCodes.RUN_FAILED;
            }
            HandlerProfile.Sums g = cal.profile().unsynced();
            groups.addAll(g);
            syncGroups += cal.profile().syncs();
            cal.handlerTotals().forEach((k, s) -> handlers.computeIfAbsent(k, x -> new HandlerProfile.Sums())
                    .addAll(s));
            sizes.add(cal.samples());
            runs.add(e.name() + "@" + e.clients());
            out.printf("%-22s %,10.0f txn/s  store groups %,9d  records %,11.0f  writer cpu %,7.0f ms%n", e.name(),
                    r.driver().throughput(), g.count, g.units, g.nanos / 1e6);
            out.flush();
        }
        if (groups.count < 2) {
            err.println("run failed: no store write was measured (nothing written)");
            err.flush();
            return ExitCodes.RUN_FAILED;
        }
        SyncProbe probe;
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("tebaldi-sync-probe-");
            probe = SyncProbe.measure(tmp, es.get(0).workload().database().catalog(), syncs);
        } catch (IOException x) {
            err.println("run failed: the sync measurement: " + x.getMessage() + " (nothing written)");
            err.flush();
            return ExitCodes.RUN_FAILED;
        } finally {
            deleteQuietly(tmp);
        }
        HandlerCost fit = HandlerCost.fit(groups);
        Map<String, Object> cal = new LinkedHashMap<>();
        cal.put("date", Instant.now().truncatedTo(ChronoUnit.MINUTES).toString());
        cal.put("host", HostIdentity.here().toMap());
        cal.put("cores", Runtime.getRuntime().availableProcessors());
        cal.put("java", System.getProperty("java.version"));
        cal.put("runs", runs);
        cal.put("warmup", warmup);
        cal.put("duration", duration);
        cal.put("groups", groups.count);
        cal.put("records", Math.round(groups.units));
        cal.put("writerCpuMs", Math.round(groups.nanos / 1e6));
        cal.put("syncedGroupsInRuns", syncGroups);
        cal.put("rocksUnsyncedMedianMicros", round(probe.rocksUnsyncedMicros()));
        cal.put("rocksSyncedMedianMicros", round(probe.rocksSyncedMicros()));
        cal.put("rocksSyncedP90Micros", round(probe.rocksSyncedP90()));
        cal.put("fsync4kMedianMicros", round(probe.fsyncMicros()));
        cal.put("fsync4kP90Micros", round(probe.fsyncP90()));
        cal.put("syncRounds", probe.rounds());
        CostTable forW = t.forWorkload(workload);
        double scale = scale(handlers, forW);
        cal.put("handlerScale", round(scale));
        Map<String, HandlerCost> added = new TreeMap<>();
        Map<String, HandlerCost> logging = new TreeMap<>();
        List<String> other = new ArrayList<>();
        List<String> sparse = new ArrayList<>();
        List<String> dearer = new ArrayList<>();
        handlers.forEach((k, s) -> {
            HandlerCost c = HandlerCost.fit(s);
            HandlerCost scaled = new HandlerCost(c.baseMicros() / scale, c.perUnitMicros() / scale,
                    c.coldMicros() / scale, c.samples());
            if (s.count < HandlerCost.MIN_SAMPLES) {
                sparse.add(k + " (" + s.count + ")");
            } else if (!forW.handlers().containsKey(k) && (DURABILITY_MESSAGES.contains(k.substring(k.indexOf(' ') + 1))
                    || k.contains(" timer/"))) {
                added.put(k, scaled);
            } else if (!forW.handlers().containsKey(k)) {
                other.add(k);
            } else if (LogStoreCosts.LOGGING_HANDLERS.contains(k)) {
                logging.put(k, scaled);
            } else if (s.count >= 1000) {
                double before = predicted(forW.handlers().get(k), s);
                double now = s.nanos / s.count / 1000 / scale;
                if (before > 0 && now > 1.2 * before) {
                    dearer.add(String.format(java.util.Locale.ROOT, "%s %.1f -> %.1f us", k, before, now));
                }
            }
        });
        LogStoreCosts costs = new LogStoreCosts(fit.baseMicros(), fit.perUnitMicros(), probe.syncMicros(), logging,
                cal);
        Map<String, Integer> bytes = new TreeMap<>();
        sizes.averages().forEach((m, b) -> {
            if (DURABILITY_MESSAGES.contains(m)) {
                bytes.put(m, b);
            }
        });
        CostTable updated = t.withAddedHandlers(workload, added, bytes).withLogStore(costs);
        try {
            updated.write(file);
        } catch (IOException x) {
            err.println("cannot write the cost table " + file + ": " + x.getMessage());
            err.flush();
            return ExitCodes.RUN_FAILED;
        }
        out.printf(java.util.Locale.ROOT, "log store: %.3f us per group + %.3f us per record (%,d groups); sync "
                        + "%.0f us (RocksDB synced %.0f us, unsynced %.0f us, medians; plain fsync of 4 KiB %.0f us)%n",
                costs.groupMicros(), costs.perRecordMicros(), groups.count, costs.syncMicros(),
                probe.rocksSyncedMicros(), probe.rocksUnsyncedMicros(), probe.fsyncMicros());
        out.printf(java.util.Locale.ROOT, "handlers ran %.2fx the table's times here (median over the keys it has); "
                + "the keys added are scaled by 1/%.2f%n", scale, scale);
        out.println("handler keys added: " + (added.isEmpty() ? "none" : String.join(", ", added.keySet())));
        if (!other.isEmpty()) {
            out.println("keys the table lacks that are not durability's (left to scripts/tebaldi calibrate): "
                    + String.join(", ", other));
        }
        if (!sparse.isEmpty()) {
            out.println("keys left out, under " + HandlerCost.MIN_SAMPLES + " handlers in the runs: "
                    + String.join(", ", sparse));
        }
        logging.forEach((k, c) -> out.printf(java.util.Locale.ROOT, "with durability %s: %.2f us + %.2f us per "
                + "logged record (+ %.2f us cold); without: %.2f us%n", k, c.baseMicros(), c.perUnitMicros(),
                c.coldMicros(), forW.handlers().get(k).baseMicros()));
        if (!dearer.isEmpty()) {
            out.println("keys the table has that cost > 20% more with durability, after scaling (not changed): "
                    + String.join("; ", dearer));
        }
        out.println("wrote " + file);
        out.flush();
        return ExitCodes.OK;
    }

    /** The table's mean cost of the handlers {@code s} summed, µs. */
    private static double predicted(HandlerCost c, HandlerProfile.Sums s) {
        return c.baseMicros() + c.perUnitMicros() * s.units / s.count + c.coldMicros() * s.colds / s.count;
    }

    /**
     * How much slower this machine ran handlers now than when the table was calibrated: the median, over the keys
     * the table has with at least 1,000 handlers here, of the measured mean over the table's. The handler costs
     * added are divided by it, so that they are on the table's scale (a busy shared machine inflates every handler's
     * time); 1 if no key qualifies.
     */
    static double scale(Map<String, HandlerProfile.Sums> measured, CostTable table) {
        List<Double> ratios = new ArrayList<>();
        measured.forEach((k, s) -> {
            HandlerCost c = table.handlers().get(k);
            if (c != null && s.count >= 1000) {
                double p = predicted(c, s);
                if (p > 0) {
                    ratios.add(s.nanos / s.count / 1000 / p);
                }
            }
        });
        if (ratios.isEmpty()) {
            return 1;
        }
        java.util.Collections.sort(ratios);
        return Math.max(1e-3, ratios.get(ratios.size() / 2));
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException x) {
            // a temporary folder left behind is harmless
        }
    }
}
