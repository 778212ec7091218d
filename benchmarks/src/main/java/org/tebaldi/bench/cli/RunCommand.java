package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.experiment.Sweep;
import org.tebaldi.bench.experiment.SweepPoint;
import org.tebaldi.bench.report.ResultFiles;
import org.tebaldi.bench.report.SummaryJson;
import org.tebaldi.bench.report.TimelineChart;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.ui.LiveView;
import org.tebaldi.core.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi run EXPERIMENT.yaml... [--profile NAME] [--set key=value]... [--out DIR]} (docs/experiments.md): applies a profile if asked ({@code --profile NAME} is {@code --set profile=NAME} before the other
 * overrides; {@code config/profiles/NAME.yaml}), validates the
 * experiment (a bad one prints one message and exits {@value ExitCodes#CONFIG}, writing nothing), loads the data,
 * runs the cluster printing a line per second, prints the summary, and writes {@code DIR/summary.json}
 * (docs/experiments.md, "summary.json"), {@code DIR/timeline.csv} and {@code DIR/timeline.png}. With {@code cluster.mode: processes} it
 * starts one JVM per node ({@link PointRunner}; node logs in {@code DIR/nodes/}); {@code --zk} uses an external
 * ZooKeeper and {@code --external-nodes} waits for nodes started by hand with {@code tebaldi node}. With
 * {@code target: postgresql} the same workload runs in SQL on PostgreSQL. Every run directory gets the tree's diagram
 * {@code tree.svg} ({@link RunFiles}); {@code --dump DIR} writes every table as CSV after the run
 * ({@link org.tebaldi.bench.report.TableDump}; a failed dump is exit code {@value ExitCodes#RUN_FAILED}). When a
 * field lists several values
 * ({@code clients: [50, 200]}, {@code --set clients=[50,200]}) or several files are given, it runs the sweep
 * instead ({@link SweepRun}): every point in turn, one sub-directory each, plus {@code results.csv} and charts.
 * With {@code --ui [PORT]} a single run is also shown live in the browser ({@link UiOptions}). Exit code
 * {@value ExitCodes#CHECK_FAILED} if a verification check failed, {@value ExitCodes#RUN_FAILED} if a run failed.
 */
@Command(name = "run", description = "Run an experiment file (config/experiments/*.yaml), or a sweep: fields "
        + "that list values (clients: [50, 200]) or several files run every combination.")
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "EXPERIMENT.yaml", description = "the experiment file(s); several "
            + "files run one after the other as one sweep")
    List<Path> experiments = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a field by dotted path, e.g. "
            + "--set clients=64 --set cluster.networkDelay=50us (repeatable; values are YAML; a list such as "
            + "clients=[50,200] sweeps the field)")
    List<String> sets = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "NAME", description = "apply config/profiles/NAME.yaml under the "
            + "experiment's own keys (= --set profile=NAME before the other overrides), e.g. --profile dissertation")
    String profile;

    @Option(names = "--out", paramLabel = "DIR", description = "run directory (default: <output>/<name>-<time>/)")
    Path out;

    @Option(names = "--zk", paramLabel = "HOST:PORT,...", description = "processes mode: use this ZooKeeper "
            + "ensemble instead of an embedded one")
    String zk;

    @Option(names = "--external-nodes", description = "processes mode: launch no node JVMs; wait for nodes started "
            + "with 'tebaldi node --zk ... --cluster <experiment name>' (needs --zk)")
    boolean externalNodes;

    @Option(names = "--dump", paramLabel = "DIR", description = "after the run, write every table as DIR/<table>.csv "
            + "(a sweep: DIR/<point>/<table>.csv); embedded and processes modes")
    Path dump;

    @Mixin
    UiOptions ui = new UiOptions();

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        Path cwd = Path.of("").toAbsolutePath();
        Sweep sweep;
        PointRunner runner = new PointRunner(zk, externalNodes, dump);
        try {
            List<String> all = new ArrayList<>();
            if (profile != null) {
                all.add("profile=" + profile);
            }
            all.addAll(sets);
            sweep = ExperimentLoader.loadSweep(experiments, all, cwd);
            for (SweepPoint p : sweep.points()) {
                runner.check(p.experiment());
            }
            ui.check(sweep.points().get(0).experiment(), sweep.isSweep());
            RunDirectory.checkOut(out);
        } catch (ConfigException x) {
            stderr.println(x.getMessage());
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        Experiment first = sweep.points().get(0).experiment();
        String name = experiments.size() > 1 ? "sweep" : first.name();
        Path dir = out != null ? out : RunDirectory.of(first.output(), name, LocalDateTime.now(), cwd);
        if (sweep.isSweep()) {
            return new SweepRun(sweep, runner, dir, stdout, stderr).run();
        }
        LiveView view;
        try {
            view = ui.start(sweep.single(), "run", stdout);
        } catch (IOException x) {
            if (out == null) {
                RunDirectory.releaseIfEmpty(dir);
            }
            stderr.println("--ui: " + x.getMessage() + " (pick another port, or 0 for any free one)");
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        try {
            int code = single(runner, sweep.single(), dir, stdout, stderr, view);
            if (view != null) {
                view.status(code == ExitCodes.RUN_FAILED ? "run failed (see the console)" : "finished; results in "
                        + dir);
            }
            return code;
        } finally {
            if (view != null) {
                view.close();
            }
        }
    }

    private static int single(PointRunner runner, Experiment e, Path dir, PrintWriter stdout, PrintWriter stderr,
                              LiveView view) throws InterruptedException {
        RunReport.header(stdout, e);
        PointRunner.Finished r;
        try {
            RunListener console = new ConsoleListener(stdout);
            r = view == null ? runner.run(e, console, dir, runner.dumpDir(""), x -> x)
                    : runner.run(e, view.listener(console), dir, runner.dumpDir(""), view::extension);
        } catch (RunFailedException x) {
            stderr.println("run failed: " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        RunReport.summary(stdout, r.result());
        try {
            RunFiles.write(dir, r, SummaryJson.build(r.result()), stdout, stderr);
        } catch (IOException x) {
            stderr.println("cannot write results to " + dir + ": " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        stdout.println("wrote " + dir.resolve(ResultFiles.SUMMARY) + ", " + ResultFiles.TIMELINE + ", "
                + TimelineChart.FILE + (e.tree() != null && !e.target().isPostgresql() ? " and tree.svg" : "")
                + (r.dump() != null && r.dump().written() != null ? "; tables as CSV in " + r.dump().dir() : ""));
        stdout.flush();
        if (r.dump() != null && r.dump().error() != null) {
            stderr.println("dump failed: " + r.dump().error());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        return r.result().checks().passed() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }
}
