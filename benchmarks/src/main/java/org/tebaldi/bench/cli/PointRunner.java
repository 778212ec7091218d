package org.tebaldi.bench.cli;

import java.nio.file.Path;
import java.util.List;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.postgres.PostgresExperimentRun;
import org.tebaldi.bench.process.NodeLauncher;
import org.tebaldi.bench.process.ProcessExperimentRun;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.tune.ProfilerExtension;
import org.tebaldi.core.config.ConfigException;

/**
 * Runs one experiment (a single run, or one point of a sweep) where it says: with {@code target: postgresql} in
 * SQL on PostgreSQL ({@link PostgresExperimentRun}), else on the cluster its {@code cluster.mode} names — the
 * embedded cluster ({@link ExperimentRun}), or one JVM per node ({@link ProcessExperimentRun}, node logs in
 * {@code <run dir>/nodes/}) — with the profiler beside it when the experiment turns it on
 * ({@link ProfilerExtension}). Holds the command line's process-mode options ({@code --zk},
 * {@code --external-nodes}), so that {@link RunCommand} and {@link SweepRun} run points the same way.
 */
final class PointRunner {
    /**
     * A finished run and what ran beside it.
     *
     * @param result    the run's measurements and checks
     * @param extension the extension that ran beside it (its files go next to the run's, {@link RunFiles})
     */
    record Finished(RunResult result, RunExtension extension) {
    }

    private final String zk;
    private final boolean externalNodes;

    /**
     * @param zk            processes mode: an external ZooKeeper ensemble ({@code host:port,...}); null for an
     *                      embedded one
     * @param externalNodes processes mode: launch no node JVMs, wait for nodes started by hand
     */
    PointRunner(String zk, boolean externalNodes) {
        this.zk = zk;
        this.externalNodes = externalNodes;
    }

    /**
     * Checks that the process-mode options fit the experiment.
     *
     * @throws ConfigException naming the option, if {@code --zk} or {@code --external-nodes} is given for an
     *                         experiment that does not run processes, or {@code --external-nodes} without
     *                         {@code --zk}; naming the file if the profiler is turned on for PostgreSQL, or
     *                         if {@code durability.dir} already holds data
     */
    void check(Experiment e) {
        boolean processes = e.cluster().mode().equals("processes");
        if (e.target().isPostgresql() && e.profiler().enabled()) {
            throw new ConfigException(e.file().toString(), 0, "profiler.enabled", "the profiler observes "
                    + "Tebaldi's CC mechanisms, not PostgreSQL", "use target: tebaldi, or profiler.enabled: false");
        }
        if ((zk != null || externalNodes) && !processes) {
            throw new ConfigException(zk != null ? "--zk" : "--external-nodes", 0, "", "only processes mode "
                    + "uses ZooKeeper and node processes" + " (experiment '" + e.name() + "' runs "
                    + e.cluster().mode() + ")", "add --set cluster.mode=processes");
        }
        if (externalNodes && zk == null) {
            throw new ConfigException("--external-nodes", 0, "", "nodes started by hand need a ZooKeeper they "
                    + "can reach", "add --zk HOST:PORT");
        }
        if (e.durability().enabled() && e.durability().dir() != null) {
            Path d = Path.of("").toAbsolutePath().resolve(e.durability().dir()).normalize();
            try (var entries = java.nio.file.Files.exists(d) ? java.nio.file.Files.list(d)
                    : java.util.stream.Stream.<Path>empty()) {
                if (entries.findAny().isPresent()) {
                    throw new ConfigException(e.file().toString(), 0, "durability.dir", "'" + d + "' already holds "
                            + "data (a run's stores are recovered with 'tebaldi node', not reused)", "name an empty "
                            + "or new directory, or leave durability.dir out (default: <run dir>/rocksdb)");
                }
            } catch (java.io.IOException x) {
                throw new ConfigException(e.file().toString(), 0, "durability.dir", "cannot read '" + d + "': "
                        + x.getMessage(), "name a readable directory");
            }
        }
    }

    /**
     * Runs {@code e}: loads its data, runs the clients (and the profiler if {@code e} turns it on), verifies.
     *
     * @param dir the run's directory (processes mode writes node logs into {@code dir/nodes/})
     * @throws RunFailedException   if the run failed (a node or workload code threw, nodes could not start)
     * @throws InterruptedException if the calling thread is interrupted (the run's clients and nodes stop first)
     */
    Finished run(Experiment e, RunListener listener, Path dir) throws RunFailedException, InterruptedException {
        return run(e, listener, dir, x -> x);
    }

    /**
     * As {@link #run(Experiment, RunListener, Path)}, with the extension that runs beside the cluster wrapped by
     * {@code wrap} (e.g. the live view's sampler around the profiler); PostgreSQL and simulated runs have none.
     */
    Finished run(Experiment e, RunListener listener, Path dir, java.util.function.UnaryOperator<RunExtension> wrap)
            throws RunFailedException, InterruptedException {
        if (e.target().isPostgresql()) {
            try {
                return new Finished(new PostgresExperimentRun(e, listener).run(), new RunExtension() { });
            } catch (IllegalStateException x) {
                throw new RunFailedException(x.getMessage(), x);
            }
        }
        if (e.cluster().simulated()) {
            try {
                return new Finished(new org.tebaldi.bench.run.SimulatedExperimentRun(e, listener).run(),
                        new RunExtension() { });
            } catch (IllegalStateException | IllegalArgumentException x) {
                throw new RunFailedException(x.getMessage(), x);
            }
        }
        RunExtension extension = wrap.apply(e.profiler().enabled()
                ? new ProfilerExtension(e.profiler(), e.workload().database()) : new RunExtension() { });
        try {
            if (e.cluster().mode().equals("processes")) {
                List<String> cmd = externalNodes ? null : NodeLauncher.command();
                return new Finished(new ProcessExperimentRun(e, listener, dir.resolve("nodes"), zk, cmd, extension)
                        .run(), extension);
            }
            return new Finished(new ExperimentRun(e, listener, extension).inDirectory(dir).run(), extension);
        } catch (IllegalStateException x) {
            throw new RunFailedException(x.getMessage(), x);
        }
    }
}
