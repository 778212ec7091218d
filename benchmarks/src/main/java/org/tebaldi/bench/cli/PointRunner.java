package org.tebaldi.bench.cli;

import java.nio.file.Path;
import java.util.List;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.postgres.PostgresExperimentRun;
import org.tebaldi.bench.process.NodeLauncher;
import org.tebaldi.bench.process.ProcessExperimentRun;
import org.tebaldi.bench.report.TableDump;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.tune.ProfilerExtension;
import org.tebaldi.bench.workload.DatabaseSnapshot;
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
    record Finished(RunResult result, RunExtension extension, Dump dump) {
        /** Without a dump. */
        Finished(RunResult result, RunExtension extension) {
            this(result, extension, null);
        }
    }

    /**
     * The outcome of {@code --dump}: what was written, or why nothing was.
     *
     * @param dir     the dump directory
     * @param written the files' tables and rows; null if the dump failed
     * @param error   why the dump failed; null if it was written
     */
    record Dump(Path dir, TableDump.Written written, String error) {
    }

    private final String zk;
    private final boolean externalNodes;
    private final Path dump;

    /**
     * @param zk            processes mode: an external ZooKeeper ensemble ({@code host:port,...}); null for an
     *                      embedded one
     * @param externalNodes processes mode: launch no node JVMs, wait for nodes started by hand
     */
    PointRunner(String zk, boolean externalNodes) {
        this(zk, externalNodes, null);
    }

    /**
     * As above, with {@code --dump}.
     *
     * @param dump where every table goes as CSV after each run ({@link TableDump}; a sweep's point in its
     *             sub-directory, {@link #dumpDir}); null for no dump
     */
    PointRunner(String zk, boolean externalNodes, Path dump) {
        this.zk = zk;
        this.externalNodes = externalNodes;
        this.dump = dump;
    }

    /**
     * Checks {@code --dump} against the experiment.
     *
     * @throws ConfigException naming {@code --dump} for a PostgreSQL or simulated experiment, or a file as DIR
     */
    void checkDump(Experiment e) {
        if (dump != null && (e.target().isPostgresql() || e.cluster().simulated())) {
            throw new ConfigException("--dump", 0, "", "experiment '" + e.name() + "' runs " + (e.target()
                    .isPostgresql() ? "on PostgreSQL, whose tables Tebaldi does not hold" : "simulated, without "
                    + "stored data"), "drop --dump (it dumps the embedded and processes modes' data servers)");
        }
        if (dump != null && java.nio.file.Files.exists(dump) && !java.nio.file.Files.isDirectory(dump)) {
            throw new ConfigException("--dump", 0, "", "'" + dump + "' is a file, not a directory",
                    "name a directory (it is created if missing)");
        }
    }

    /** The dump directory of a run whose point directory is {@code pointDir} ("" for a single run); null if none. */
    Path dumpDir(String pointDir) {
        return dump == null ? null : pointDir.isEmpty() ? dump : dump.resolve(pointDir);
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
        checkDump(e);
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
     * What hands a run's final state to {@link TableDump} ({@code --dump}), printing a line on {@code listener};
     * null when {@code dumpDir} is.
     *
     * @param result receives the outcome in its first element once the run handed its final state over
     */
    static java.util.function.Consumer<DatabaseSnapshot> dumpSink(Experiment e, Path dumpDir, RunListener listener,
                                                                 Dump[] result) {
        if (dumpDir == null) {
            return null;
        }
        return snap -> {
            try {
                TableDump.Written w = TableDump.write(dumpDir, e.workload().database().catalog(), snap);
                result[0] = new Dump(dumpDir, w, null);
                listener.phase("dumped " + w.rows().size() + " table(s), " + w.total() + " row(s), as CSV to "
                        + dumpDir);
            } catch (java.io.IOException x) {
                result[0] = new Dump(dumpDir, null, "cannot write " + dumpDir + ": " + x.getMessage());
                listener.phase("dump failed: " + result[0].error());
            }
        };
    }

    /**
     * Runs {@code e}: loads its data, runs the clients (and the profiler if {@code e} turns it on), verifies.
     *
     * @param dir the run's directory (processes mode writes node logs into {@code dir/nodes/})
     * @throws RunFailedException   if the run failed (a node or workload code threw, nodes could not start)
     * @throws InterruptedException if the calling thread is interrupted (the run's clients and nodes stop first)
     */
    Finished run(Experiment e, RunListener listener, Path dir) throws RunFailedException, InterruptedException {
        return run(e, listener, dir, null, x -> x);
    }

    /**
     * As {@link #run(Experiment, RunListener, Path)}, writing every table into {@code dumpDir} after the run (null:
     * no dump; only the embedded and processes modes, see {@link #check}), with the extension that runs beside the
     * cluster wrapped by {@code wrap} (e.g. the live view's sampler around the profiler; {@code x -> x}: none);
     * PostgreSQL runs have none, simulated ones the profiler alone (in virtual time).
     */
    Finished run(Experiment e, RunListener listener, Path dir, Path dumpDir,
                 java.util.function.UnaryOperator<RunExtension> wrap) throws RunFailedException, InterruptedException {
        if (e.target().isPostgresql()) {
            try {
                return new Finished(new PostgresExperimentRun(e, listener).run(), new RunExtension() { });
            } catch (IllegalStateException x) {
                throw new RunFailedException(x.getMessage(), x);
            }
        }
        if (e.cluster().simulated()) {
            RunExtension profiler = e.profiler().enabled()
                    ? new ProfilerExtension(e.profiler(), e.workload().database()) : new RunExtension() { };
            try {
                return new Finished(new org.tebaldi.bench.run.SimulatedExperimentRun(e, listener, profiler).run(),
                        profiler);
            } catch (IllegalStateException | IllegalArgumentException x) {
                throw new RunFailedException(x.getMessage(), x);
            }
        }
        RunExtension extension = wrap.apply(e.profiler().enabled()
                ? new ProfilerExtension(e.profiler(), e.workload().database()) : new RunExtension() { });
        Dump[] dumped = new Dump[1];
        java.util.function.Consumer<DatabaseSnapshot> sink = dumpSink(e, dumpDir, listener, dumped);
        try {
            if (e.cluster().mode().equals("processes")) {
                List<String> cmd = externalNodes ? null : NodeLauncher.command();
                ProcessExperimentRun run = new ProcessExperimentRun(e, listener, dir.resolve("nodes"), zk, cmd,
                        extension);
                if (sink != null) {
                    run.withFinalState(sink);
                }
                return new Finished(run.run(), extension, dumped[0]);
            }
            ExperimentRun run = new ExperimentRun(e, listener, extension).inDirectory(dir);
            if (sink != null) {
                run.withFinalState(sink);
            }
            return new Finished(run.run(), extension, dumped[0]);
        } catch (IllegalStateException x) {
            throw new RunFailedException(x.getMessage(), x);
        }
    }
}
