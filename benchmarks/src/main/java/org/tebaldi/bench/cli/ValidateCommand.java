package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.experiment.Sweep;
import org.tebaldi.bench.experiment.SweepPoint;
import org.tebaldi.bench.experiment.SimulationSpec;
import org.tebaldi.bench.run.CostTableHost;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.SimulatedExperimentRun;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.runtime.cost.HostIdentity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi validate EXPERIMENT.yaml... [--set KEY=VALUE]... [--repeat 3] [--out DIR]} (docs/simulation.md,
 * "Validation"): runs every point of the experiments (a sweep, e.g. {@code --set clients=[50,200]}) for real in
 * embedded mode {@code --repeat} times and once as {@code cluster.mode: simulated} with the same settings (the
 * default simulation models this machine: 1 machine, its cores, 50 µs), each with the experiment's own
 * {@code verify} setting (a real run with verification records its history and spills it to disk during the run,
 * and the simulation charges what the cost table calibrated for that; {@code --set verify=false} compares runs
 * without it), then compares: the
 * median real throughput against the simulated one (within ±20%) and the abort rates (within ±5 points). Before
 * the runs it prints whether the cost table was measured on this host ({@link CostTableHost}). Writes
 * {@code DIR/validation.csv} (one row per point) and {@code DIR/validation.md}, and prints the table. Exit code
 * {@value ExitCodes#CHECK_FAILED} when a row is out of bounds, {@value ExitCodes#RUN_FAILED} if a run failed,
 * {@value ExitCodes#CONFIG} for bad input (nothing run).
 */
@Command(name = "validate", description = "Compare the simulated model of this machine with real embedded runs "
        + "(throughput within 20%%, abort rate within 5 points).")
final class ValidateCommand implements Callable<Integer> {
    /** Throughput bound: |simulated / real - 1|. */
    static final double THROUGHPUT_BOUND = 0.20;
    /** Abort-rate bound, points (0..100). */
    static final double ABORT_BOUND = 5.0;
    /** The column of validation.csv that holds the runs' verify setting ({@link ValidationTable#csv}). */
    static final int VERIFY_COLUMN = 13;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "EXPERIMENT.yaml", description = "experiments (embedded or simulated "
            + "files; the mode is set for each run)")
    List<Path> experiments = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a field, e.g. --set clients=[50,200]")
    List<String> sets = new ArrayList<>();

    @Option(names = "--repeat", paramLabel = "N", description = "real runs per point (default: 3; their median "
            + "is compared)")
    int repeat = 3;

    @Option(names = "--out", paramLabel = "DIR", description = "where validation.csv/.md go (default: "
            + "results/validate-<time>/)")
    Path out;

    @Option(names = "--reuse-real", paramLabel = "validation.csv", description = "take the real runs from an "
            + "earlier validation (min, median and max of each point: its three runs when --repeat was 3) and run "
            + "only the simulation, e.g. after a change to the model alone; its runs' verify setting must be this "
            + "validation's")
    Path reuseReal;

    @Option(names = "--costs", paramLabel = "TABLE.yaml", description = "the cost table of the simulated runs "
            + "(default: each experiment's, config/costs/default.yaml unless it names one), e.g. one just "
            + "written by scripts/tebaldi calibrate on this host")
    Path costs;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    /** One compared point. */
    record Row(String experiment, int clients, List<Double> real, List<Double> realAborts, double sim, double simAbort,
               double realCpu, double simCpu, String verify) {
        double realMedian() {
            return median(real);
        }

        double realAbortMedian() {
            return median(realAborts);
        }

        double ratio() {
            return realMedian() <= 0 ? Double.NaN : sim / realMedian();
        }

        double abortPoints() {
            return 100 * (simAbort - realAbortMedian());
        }

        boolean within() {
            return Math.abs(ratio() - 1) <= THROUGHPUT_BOUND && Math.abs(abortPoints()) <= ABORT_BOUND;
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        Path cwd = Path.of("").toAbsolutePath();
        Sweep real;
        Sweep sim;
        try {
            if (repeat < 1) {
                throw new ConfigException("--repeat", 0, "", "must be at least 1, found " + repeat, "write --repeat 3");
            }
            List<String> common = new ArrayList<>(sets);
            List<String> r = new ArrayList<>(common);
            r.add("cluster.mode=embedded");
            List<String> s = new ArrayList<>(common);
            s.add("cluster.mode=simulated");
            if (costs != null) {
                s.add("cluster.simulation.costs=" + costs);
            }
            real = ExperimentLoader.loadSweep(experiments, r, cwd);
            sim = ExperimentLoader.loadSweep(experiments, s, cwd);
            RunDirectory.checkOut(out);
        } catch (ConfigException x) {
            stderr.println(x.getMessage());
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        java.util.Map<String, List<String>> earlier = new java.util.HashMap<>();
        if (reuseReal != null) {
            try {
                List<String> lines = Files.readAllLines(reuseReal);
                for (String line : lines.subList(1, lines.size())) {
                    String[] c = line.split(",");
                    earlier.put(c[0] + "@" + c[1], List.of(c));
                }
            } catch (IOException | RuntimeException x) {
                stderr.println(reuseReal + ": cannot read an earlier validation.csv: " + x.getMessage()
                        + ". Fix: name a validation.csv written by tebaldi validate");
                stderr.flush();
                return ExitCodes.CONFIG;
            }
        }
        for (SweepPoint p : real.points()) {
            List<String> row = earlier.get(p.experiment().name() + "@" + p.experiment().clients());
            // validation.csv's last column since it records it; older files were validated with verify off
            String was = row == null ? null : row.size() > VERIFY_COLUMN ? row.get(VERIFY_COLUMN) : "off";
            if (was != null && !was.equals(p.experiment().verification().key())) {
                stderr.println(reuseReal + ": the real runs of " + p.experiment().name() + "@" + p.experiment().clients()
                        + " ran with verify " + was + ", this validation with verify " + p.experiment().verification()
                        .key() + ". Fix: add --set verify=" + (was.equals("off") ? "false" : was) + ", or validate "
                        + "that point anew");
                stderr.flush();
                return ExitCodes.CONFIG;
            }
        }
        Path dir = out != null ? out : RunDirectory.of("results", "validate", LocalDateTime.now(), cwd);
        java.util.Set<String> said = new java.util.HashSet<>();
        for (SweepPoint p : sim.points()) {
            SimulationSpec ss = p.experiment().cluster().simulation();
            if (said.add(ss.costsFile().toString())) {
                stdout.println(CostTableHost.check(ss.costs(), ss.costsFile(), HostIdentity.here()).line());
            }
            String note = SimulatedExperimentRun.verifyNote(ss.costs(), p.experiment().verify());
            if (note != null && said.add(ss.costsFile() + " " + p.experiment().verify())) {
                stdout.println(note);
            }
        }
        stdout.flush();
        PointRunner runner = new PointRunner(null, false);
        List<Row> rows = new ArrayList<>();
        int n = real.points().size();
        for (int i = 0; i < n; i++) {
            SweepPoint rp = real.points().get(i);
            SweepPoint sp = sim.points().get(i);
            List<Double> tput = new ArrayList<>();
            List<Double> aborts = new ArrayList<>();
            double cpu = 0;
            RunResult simulated = null;
            List<String> old = earlier.get(rp.experiment().name() + "@" + rp.experiment().clients());
            if (reuseReal != null && old == null) {
                stderr.println(reuseReal + " has no row for " + rp.describe() + ". Fix: validate that point anew");
                stderr.flush();
                return ExitCodes.CONFIG;
            }
            try {
                if (old != null) {
                    for (int c : new int[] {3, 2, 4}) {
                        tput.add(Double.parseDouble(old.get(c)));
                    }
                    aborts.add(Double.parseDouble(old.get(7)));
                    cpu = Double.parseDouble(old.get(10));
                    simulated = runner.run(sp.experiment(), new RunListener() { }, dir.resolve("runs")).result();
                    stdout.printf(Locale.ROOT, "[%d/%d] %s simulated: %,.0f txn/s, abort %.1f%% (wall %.0f s); real "
                                    + "runs from %s%n", i + 1, n, sp.describe(), simulated.driver().throughput(),
                            100 * simulated.driver().total().abortRate(), simulated.simulation().wallMillis() / 1000.0,
                            reuseReal);
                    stdout.flush();
                }
                for (int k = 0; old == null && k < repeat; k++) {
                    RunResult x = runner.run(rp.experiment(), new RunListener() { }, dir.resolve("runs")).result();
                    tput.add(x.driver().throughput());
                    aborts.add(x.driver().total().abortRate());
                    cpu = Math.max(cpu, x.driver().machine() == null ? 0 : x.driver().machine().utilization());
                    stdout.printf(Locale.ROOT, "[%d/%d] %s real #%d: %,.0f txn/s, abort %.1f%%%n", i + 1, n,
                            rp.describe(), k + 1, tput.get(k), 100 * aborts.get(k));
                    stdout.flush();
                    if (k == 0) {
                        simulated = runner.run(sp.experiment(), new RunListener() { }, dir.resolve("runs")).result();
                        stdout.printf(Locale.ROOT, "[%d/%d] %s simulated: %,.0f txn/s, abort %.1f%% (wall %.0f s)%n",
                                i + 1, n, sp.describe(), simulated.driver().throughput(),
                                100 * simulated.driver().total().abortRate(),
                                simulated.simulation().wallMillis() / 1000.0);
                        stdout.flush();
                    }
                }
            } catch (RunFailedException x) {
                stderr.println("run failed: " + rp.describe() + ": " + x.getMessage());
                stderr.flush();
                return ExitCodes.RUN_FAILED;
            }
            rows.add(new Row(rp.experiment().name(), rp.experiment().clients(), tput, aborts,
                    simulated.driver().throughput(), simulated.driver().total().abortRate(), cpu,
                    simulated.simulation().maxMachineUtilization(), rp.experiment().verification().key()));
        }
        List<String> table = ValidationTable.markdown(rows);
        table.forEach(stdout::println);
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("validation.csv"), ValidationTable.csv(rows));
            Files.writeString(dir.resolve("validation.md"), String.join("\n", table) + "\n");
        } catch (IOException x) {
            stderr.println("cannot write " + dir + ": " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        stdout.println("wrote " + dir.resolve("validation.csv") + " and validation.md");
        stdout.flush();
        return rows.stream().allMatch(Row::within) ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(Double::compare);
        int m = s.size() / 2;
        return s.isEmpty() ? Double.NaN : s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
    }
}
