package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.tebaldi.bench.driver.MachineUsage;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.HandlerCalibration;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.config.Durations;
import org.tebaldi.core.runtime.cost.CostTable;
import org.tebaldi.core.runtime.cost.HostIdentity;
import org.tebaldi.bench.run.CostTableHost;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi calibrate [--out FILE] [--name NAME] [--warmup 20s] [--duration 8s] [--set KEY=VALUE]...
 * [EXPERIMENT.yaml ...]}
 * (docs/simulation.md, "Calibration"): takes this host's identity and speed probe ({@link HostIdentity#here}, before
 * any run), then runs each experiment in embedded mode — after one unmeasured JIT warm-up run per workload — with
 * its own {@code verify} setting (a default run records its history and spills it during the run: the recording is
 * then inside the handler costs and the spill thread's CPU inside the overhead factor; {@code --set verify=false}
 * calibrates runs without verification), durability off, the given warm-up and measured duration instead of the
 * file's — with handler profiling on exactly for the
 * measured window ({@link HandlerCalibration}), prints one line per experiment (throughput, handled messages, time
 * in handlers, the JVM's CPU time in the window), then fits and writes the cost table ({@link CostTable#fit}): a
 * linear cost per handler key, the per-message overhead, the encoded size per message class, and the host it was
 * measured on ({@code calibration.host}). Without files it runs
 * {@link #DEFAULTS} at {@link #DEFAULT_CLIENTS} clients; a file (or {@code --set}) that lists values runs every
 * point of its sweep. Bad input (a missing file, an experiment not in embedded mode or on PostgreSQL, a
 * bad duration, {@code --out} naming a directory) prints one message and exits {@value ExitCodes#CONFIG} before
 * anything runs; a failed run or an unwritable table exits {@value ExitCodes#RUN_FAILED}. Nothing is written
 * unless every run succeeded.
 */
@Command(name = "calibrate", description = "Measure handler CPU costs and message sizes on this machine and write "
        + "the cost table of cluster.mode: simulated (config/costs/*.yaml).")
final class CalibrateCommand implements Callable<Integer> {
    /** The experiments calibrated when none is named, relative to the repository root. */
    static final List<String> DEFAULTS = List.of("config/experiments/tpcc-2pl.yaml",
            "config/experiments/tpcc-tebaldi-3layer.yaml", "config/experiments/seats-manual.yaml",
            "config/experiments/micro-ww-5-rp.yaml");
    /**
     * The client counts the defaults run at: two loads, so that the fit can tell what grows with the transactions in
     * flight (the per-load cost). TPC-C's initial tree and the other micro points are left out on purpose: they
     * are the validation's held-out rows (docs/simulation.md).
     */
    static final String DEFAULT_CLIENTS = "clients=[50,200]";
    /** The table written without {@code --out}, relative to the repository root. */
    static final String DEFAULT_OUT = "config/costs/default.yaml";

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "EXPERIMENT.yaml", description = "experiments to run (embedded mode; "
            + "default: TPC-C under 2PL and the 3-layer tree, SEATS manual, micro ww-5 RP)")
    List<Path> experiments = new ArrayList<>();

    @Option(names = "--out", paramLabel = "FILE", description = "the cost table to write (default: "
            + DEFAULT_OUT + ")")
    Path out;

    @Option(names = "--name", paramLabel = "NAME", description = "the table's name (default: the file name)")
    String name;

    /**
     * Warm-up of each calibration run: the shipped experiments' {@code warmup.min}, so that the handlers are timed in
     * a JVM as warm as the one a run's measured window sees (with 4 s the default experiment's handlers were timed at
     * half its steady throughput, and the table predicted 0.77–0.82 of the real runs; docs/simulation.md).
     */
    static final String DEFAULT_WARMUP = "20s";

    @Option(names = "--warmup", paramLabel = "DURATION", description = "warm-up of each run (default: "
            + DEFAULT_WARMUP + ", the shipped experiments' warmup.min)")
    String warmup = DEFAULT_WARMUP;

    @Option(names = "--duration", paramLabel = "DURATION", description = "measured window of each run, profiled "
            + "(default: 8s)")
    String duration = "8s";

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a field of every experiment, e.g. "
            + "--set clients=200 (repeatable; as in tebaldi run)")
    List<String> extraSets = new ArrayList<>();

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        Path cwd = Path.of("").toAbsolutePath();
        String home = System.getProperty(RunDirectory.HOME_PROPERTY);
        Path root = home != null && !home.isBlank() ? Path.of(home) : cwd;
        Path file = out != null ? out : root.resolve(DEFAULT_OUT);
        List<Experiment> es = new ArrayList<>();
        try {
            checkDuration("--warmup", warmup, true);
            checkDuration("--duration", duration, false);
            if (Files.isDirectory(file)) {
                throw new ConfigException("--out", 0, "", "'" + file + "' is a directory", "name the cost table "
                        + "file, e.g. " + DEFAULT_OUT);
            }
            List<String> sets = new ArrayList<>();
            if (experiments.isEmpty() && extraSets.stream().noneMatch(x -> x.startsWith("clients="))) {
                sets.add(DEFAULT_CLIENTS);
            }
            sets.addAll(extraSets);
            sets.addAll(List.of("warmup=" + warmup, "duration=" + duration, "durability.enabled=false"));
            List<Path> files = experiments.isEmpty() ? DEFAULTS.stream().map(root::resolve).toList() : experiments;
            for (Path f : files) {
                for (org.tebaldi.bench.experiment.SweepPoint p : ExperimentLoader.loadSweep(List.of(f), sets, cwd)
                        .points()) {
                    es.add(checked(p.experiment()));
                }
            }
        } catch (ConfigException x) {
            stderr.println(x.getMessage());
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        String table = name != null ? name : file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        stdout.println("calibrating " + es.size() + " experiment(s): " + warmup + " warm-up, " + duration
                + " measured and profiled each; measuring this host's speed probe first");
        stdout.flush();
        HostIdentity host = HostIdentity.measure();
        stdout.println(CostTableHost.describe(host));
        if (host.probe().spread() > HostIdentity.PROBE_TOLERANCE) {
            stdout.printf(java.util.Locale.ROOT, "WARNING: the speed probe's repeats differ by %.0f%% of their median: "
                    + "this host is busy (other processes share its cores), and the costs measured now include that "
                    + "load; calibrate on a quiet machine%n", 100 * host.probe().spread());
        }
        stdout.flush();
        CalibrationTotals totals = new CalibrationTotals(warmup, duration, host, extraSets);
        java.util.Set<String> warmed = new java.util.HashSet<>();
        for (Experiment e : es) {
            HandlerCalibration cal = new HandlerCalibration();
            RunResult r;
            try {
                if (warmed.add(e.workload().name())) {
                    // the JIT compiler's first minutes on a workload's code burn CPU outside handlers and slow the
                    // handlers down: one unprofiled run per workload first, whose numbers are dropped
                    stdout.printf("%-22s (JIT warm-up run, not measured)%n", e.name());
                    stdout.flush();
                    new ExperimentRun(e, new RunListener() { }).run();
                }
                r = new ExperimentRun(e, new RunListener() { }, cal).run();
            } catch (RunFailedException | IllegalStateException x) {
                stderr.println("run failed: " + e.name() + ": " + x.getMessage() + " (nothing written)");
                stderr.flush();
                return ExitCodes.RUN_FAILED;
            }
            MachineUsage m = r.driver().machine();
            if (m == null || cal.handled() == 0) {
                stderr.println("run failed: " + e.name() + ": no handler was measured in the window (nothing "
                        + "written)");
                stderr.flush();
                return ExitCodes.RUN_FAILED;
            }
            totals.add(e, cal, m.processCpuMs());
            stdout.printf("%-22s %,10.0f txn/s  handled %,11d  handler %,8d ms  cpu %,8d ms  idle %,9d  late %5.1f µs"
                            + "  verify %s%s%n", e.name(), r.driver().throughput(), cal.handled(),
                    Math.round(cal.handlerNanos() / 1e6), m.processCpuMs(), cal.idleEpisodes(), cal.lateMicros(),
                    e.verification().key(), r.checks().passed() ? "" : " (verification FAILED: serializable "
                            + r.checks().serializable() + ", consistent " + r.checks().consistent() + ")");
            stdout.flush();
        }
        CostTable t = totals.fit(table);
        try {
            t.write(file);
        } catch (IOException x) {
            stderr.println("cannot write the cost table " + file + ": " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        totals.report(stdout, t, file);
        stdout.flush();
        return ExitCodes.OK;
    }

    private static void checkDuration(String option, String text, boolean zeroOk) {
        long micros;
        try {
            micros = Durations.parseMicros(text);
        } catch (IllegalArgumentException x) {
            throw new ConfigException(option, 0, "", x.getMessage(), "write e.g. " + option + " 4s");
        }
        if (!zeroOk && micros == 0) {
            throw new ConfigException(option, 0, "", "the measured window must be longer than 0",
                    "write e.g. " + option + " 8s");
        }
    }

    /** {@code e}, if it runs the Tebaldi cluster in embedded mode; else one message naming the field. */
    private static Experiment checked(Experiment e) {
        if (e.target().isPostgresql()) {
            throw new ConfigException(e.file().toString(), 0, "target", "calibrate measures the Tebaldi cluster's "
                    + "handlers; experiment '" + e.name() + "' runs on PostgreSQL", "name a target: tebaldi experiment");
        }
        if (!e.cluster().mode().equals("embedded")) {
            throw new ConfigException(e.file().toString(), 0, "cluster.mode", "calibrate times handlers inside one "
                    + "JVM, so it runs embedded experiments only; '" + e.name() + "' runs " + e.cluster().mode(),
                    "name an experiment with cluster.mode: embedded");
        }
        return e;
    }
}
