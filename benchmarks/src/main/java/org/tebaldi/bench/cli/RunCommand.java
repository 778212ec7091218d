package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.postgres.PostgresExperimentRun;
import org.tebaldi.bench.process.NodeLauncher;
import org.tebaldi.bench.process.ProcessExperimentRun;
import org.tebaldi.bench.report.ResultFiles;
import org.tebaldi.bench.report.SummaryJson;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.tune.ProfilerExtension;
import org.tebaldi.core.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi run EXPERIMENT.yaml [--set key=value]... [--out DIR]} (DESIGN.md §9): validates the experiment
 * (a bad one prints one message and exits {@value ExitCodes#CONFIG}, writing nothing), loads the data, runs the
 * embedded cluster printing a line per second, prints the summary, and writes {@code DIR/summary.json}
 * (WORKLOADS.md) and {@code DIR/timeline.csv}. With {@code cluster.mode: processes} it starts one JVM per node
 * ({@link ProcessExperimentRun}; node logs in {@code DIR/nodes/}); {@code --zk} uses an external ZooKeeper and
 * {@code --external-nodes} waits for nodes started by hand with {@code tebaldi node}. With {@code target: postgresql}
 * the same workload runs in SQL on PostgreSQL ({@link PostgresExperimentRun}). Exit code {@value ExitCodes#CHECK_FAILED} if a verification check
 * failed, {@value ExitCodes#RUN_FAILED} if the run failed.
 */
@Command(name = "run", description = "Run an experiment file (config/experiments/*.yaml).")
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPERIMENT.yaml", description = "the experiment file")
    Path experiment;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a field by dotted path, e.g. "
            + "--set clients=64 --set cluster.networkDelay=50us (repeatable; values are YAML scalars)")
    List<String> sets = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "run directory (default: <output>/<name>-<time>/)")
    Path out;

    @Option(names = "--zk", paramLabel = "HOST:PORT,...", description = "processes mode: use this ZooKeeper "
            + "ensemble instead of an embedded one")
    String zk;

    @Option(names = "--external-nodes", description = "processes mode: launch no node JVMs; wait for nodes started "
            + "with 'tebaldi node --zk ... --cluster <experiment name>' (needs --zk)")
    boolean externalNodes;

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
            boolean processes = e.cluster().mode().equals("processes");
            if (e.target().isPostgresql() && e.profiler().enabled()) {
                throw new ConfigException(experiment.toString(), 0, "profiler.enabled", "the profiler observes "
                        + "Tebaldi's CC mechanisms, not PostgreSQL", "use target: tebaldi, or profiler.enabled: false");
            }
            if ((zk != null || externalNodes) && !processes) {
                throw new ConfigException(zk != null ? "--zk" : "--external-nodes", 0, "", "only processes mode "
                        + "uses ZooKeeper and node processes", "add --set cluster.mode=processes");
            }
            if (externalNodes && zk == null) {
                throw new ConfigException("--external-nodes", 0, "", "nodes started by hand need a ZooKeeper they "
                        + "can reach", "add --zk HOST:PORT");
            }
            if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
                throw new ConfigException("--out", 0, "", "'" + out + "' is a file, not a directory",
                        "name a directory (it is created if missing)");
            }
        } catch (ConfigException x) {
            stderr.println(x.getMessage());
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        Path dir = out != null ? out : RunDirectory.of(e.output(), e.name(), LocalDateTime.now(), cwd);
        if (e.durability().enabled() && e.durability().dir() != null) {
            Path d = cwd.resolve(e.durability().dir()).normalize();
            try (var entries = Files.exists(d) ? Files.list(d) : java.util.stream.Stream.<Path>empty()) {
                if (entries.findAny().isPresent()) {
                    stderr.println(new ConfigException(experiment.toString(), 0, "durability.dir", "'" + d
                            + "' already holds data (a run's stores are recovered with 'tebaldi node', not reused)",
                            "name an empty or new directory, or leave durability.dir out (default: <run dir>/rocksdb)")
                            .getMessage());
                    stderr.flush();
                    return ExitCodes.CONFIG;
                }
            } catch (IOException x) {
                stderr.println("cannot read durability.dir " + d + ": " + x.getMessage());
                stderr.flush();
                return ExitCodes.CONFIG;
            }
        }
        RunReport.header(stdout, e);
        RunExtension extension = e.profiler().enabled()
                ? new ProfilerExtension(e.profiler(), e.workload().database()) : new RunExtension() { };
        RunResult r;
        try {
            if (e.target().isPostgresql()) {
                r = new PostgresExperimentRun(e, new ConsoleListener(stdout)).run();
            } else if (e.cluster().mode().equals("processes")) {
                List<String> cmd = externalNodes ? null : NodeLauncher.command();
                r = new ProcessExperimentRun(e, new ConsoleListener(stdout), dir.resolve("nodes"), zk, cmd, extension)
                        .run();
            } else {
                r = new ExperimentRun(e, new ConsoleListener(stdout), extension).inDirectory(dir).run();
            }
        } catch (IllegalStateException x) {
            stderr.println("run failed: " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        } catch (RunFailedException x) {
            stderr.println("run failed: " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        RunReport.summary(stdout, r);
        try {
            ResultFiles.write(dir, SummaryJson.build(r), r.driver().timeline());
            extension.writeFiles(dir, r);
        } catch (IOException x) {
            stderr.println("cannot write results to " + dir + ": " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        stdout.println("wrote " + dir.resolve(ResultFiles.SUMMARY) + " and " + ResultFiles.TIMELINE);
        stdout.flush();
        return r.checks().passed() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }
}
