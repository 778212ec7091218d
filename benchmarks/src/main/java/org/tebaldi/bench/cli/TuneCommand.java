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
import org.tebaldi.bench.process.NodeLauncher;
import org.tebaldi.bench.process.ProcessExperimentRun;
import org.tebaldi.bench.report.ResultFiles;
import org.tebaldi.bench.report.SummaryJson;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.run.SimulatedExperimentRun;
import org.tebaldi.bench.tune.TuneConsole;
import org.tebaldi.bench.tune.TuneExtension;
import org.tebaldi.bench.ui.LiveView;
import org.tebaldi.core.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi tune EXPERIMENT.yaml [--set key=value]... [--out DIR]} (docs/autoconf.md): the automatic tuning
 * daemon. Runs the experiment (embedded, or one JVM per node with {@code cluster.mode: processes}: the profiler
 * monitor and the reconfiguration server then run in this JVM, reached through ZooKeeper; or with
 * {@code cluster.mode: simulated} in virtual time, the profiler monitor and reconfiguration server as simulated nodes
 * and the configurator between simulation events, docs/autoconf.md "Tuning a simulated cluster") with the profiler
 * on; after
 * warm-up the configurator (dissertation Fig 5.1) iterates from the experiment's tree — bottleneck, candidates, each
 * compared with the running tree in interleaved windows after live swaps (a gain interval and a verdict), a confirmed
 * decision — printing each step, until no bottleneck or no candidate significantly better, then measures the final
 * tree for {@code autoconf.final} and ends the run, or with {@code autoconf.daemon} stays on until {@code duration}
 * ends, re-entering tuning when the bottleneck changes or throughput drifts ({@code duration} bounds the whole).
 * Writes the run's
 * {@code summary.json} and {@code timeline.csv}, {@code profile.csv}, the start tree's diagram {@code tree.svg}, every
 * adopted tree as YAML and diagram ({@code .svg}, {@code .dot}) under {@code trees/}, {@code iterations.csv}, {@code
 * reconfigurations.csv}, {@code tuning-timeline.csv} and {@code tuning.json}; {@code --dump DIR} as {@code run}'s.
 * With {@code --ui [PORT]} the run, the current tree, the profiler's scores and every reconfiguration are shown live
 * in the browser ({@link UiOptions}). Exit codes as {@code run}; tuning that failed is
 * {@value ExitCodes#RUN_FAILED}.
 */
@Command(name = "tune", description = "Automatically configure the CC tree while an experiment runs.")
final class TuneCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPERIMENT.yaml", description = "the experiment file (e.g. "
            + "config/experiments/tpcc-autotune.yaml)")
    Path experiment;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a field, e.g. --set "
            + "autoconf.measure=3s --set duration=10m (repeatable)")
    List<String> sets = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "run directory (default: <output>/<name>-<time>/)")
    Path out;

    @Option(names = "--dump", paramLabel = "DIR", description = "after the run, write every table as DIR/<table>.csv")
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
        Experiment e;
        try {
            e = ExperimentLoader.load(experiment, sets, cwd);
            if (e.target().isPostgresql()) {
                throw new ConfigException(experiment.toString(), 0, "target", "tune configures Tebaldi's CC tree; "
                        + "PostgreSQL has none", "use target: tebaldi (or leave it out)");
            }
            RunDirectory.checkOut(out);
            new PointRunner(null, false, dump).checkDump(e);
            ui.check(e, false);
        } catch (ConfigException x) {
            stderr.println(x.getMessage());
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        Path dir = out != null ? out : RunDirectory.of(e.output(), e.name(), LocalDateTime.now(), cwd);
        LiveView view;
        try {
            view = ui.start(e, "tune", stdout);
        } catch (IOException x) {
            if (out == null) {
                RunDirectory.releaseIfEmpty(dir);
            }
            stderr.println("--ui: " + x.getMessage() + " (pick another port, or 0 for any free one)");
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        try {
            int code = tune(e, dir, dump, stdout, stderr, view);
            if (view != null) {
                view.status(code == ExitCodes.RUN_FAILED ? "run or tuning failed (see the console)"
                        : "finished; results in " + dir);
            }
            return code;
        } finally {
            if (view != null) {
                view.close();
            }
        }
    }

    private static int tune(Experiment e, Path dir, Path dump, PrintWriter stdout, PrintWriter stderr, LiveView view)
            throws InterruptedException {
        RunReport.header(stdout, e);
        TuneExtension tune = new TuneExtension(e, new TuneConsole(stdout));
        RunExtension ext = view == null ? tune : view.extension(tune);
        ConsoleListener console = new ConsoleListener(stdout);
        RunListener listener = view == null ? console : view.listener(console);
        RunResult r;
        PointRunner.Dump[] dumped = new PointRunner.Dump[1];
        var sink = PointRunner.dumpSink(e, dump, console, dumped);
        try {
            if (e.cluster().simulated()) {
                r = new SimulatedExperimentRun(e, listener, ext).run();
            } else if (e.cluster().mode().equals("processes")) {
                ProcessExperimentRun run = new ProcessExperimentRun(e, listener, dir.resolve("nodes"), null,
                        NodeLauncher.command(), ext);
                r = (sink == null ? run : run.withFinalState(sink)).run();
            } else {
                ExperimentRun run = new ExperimentRun(e, listener, ext).inDirectory(dir);
                r = (sink == null ? run : run.withFinalState(sink)).run();
            }
        } catch (IllegalStateException | IllegalArgumentException | RunFailedException x) {
            stderr.println("run failed: " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        RunReport.summary(stdout, r, tune.swaps().size());
        try {
            var summary = SummaryJson.build(r);
            RunFiles.dump(summary, dumped[0]);
            ResultFiles.write(dir, summary, r.driver().timeline());
            tune.writeFiles(dir, r);
            RunFiles.tree(dir, e, stdout);
        } catch (IOException x) {
            stderr.println("cannot write results to " + dir + ": " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        stdout.println("wrote " + dir.resolve(ResultFiles.SUMMARY) + ", tree.svg, trees/, iterations.csv, "
                + "reconfigurations.csv, tuning-timeline.csv and tuning.json");
        stdout.flush();
        if (dumped[0] != null && dumped[0].error() != null) {
            stderr.println("dump failed: " + dumped[0].error());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        if (tune.failure() != null) {
            stderr.println("tuning failed: " + tune.failure());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        return r.checks().passed() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }
}
