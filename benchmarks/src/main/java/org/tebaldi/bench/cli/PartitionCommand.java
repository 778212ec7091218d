package org.tebaldi.bench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.tebaldi.bench.partition.ContentionPartitioner;
import org.tebaldi.bench.partition.ContentionStats;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.run.ExperimentRun;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunFailedException;
import org.tebaldi.core.config.Durations;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Placement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi partition EXPERIMENT.yaml --out FILE} (contention-aware partitioning, Zamanian et al. SIGMOD 2020;
 * docs/papers.md): runs the experiment embedded for a short profiling window with the data servers sampling
 * transactions' accesses (§4.1), or reads a stats file
 * ({@code --stats}), then computes the contention likelihoods, the star graph and METIS's partitioning (§4.2–4.3) and
 * writes a placement — the hot records' lookup table over the default partitioner (§4.4) — that experiments load
 * with {@code cluster.placement: FILE}.
 */
@Command(name = "partition", description = "Contention-aware partitioning: profile an experiment, write a "
        + "placement file (cluster.placement)")
final class PartitionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1", paramLabel = "EXPERIMENT.yaml", description = "the experiment to profile")
    Path experiment;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "the placement file to write (JSON)")
    Path out;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a field of the experiment "
            + "(repeatable)")
    List<String> sets = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "DURATION", description = "profiling window (default 10s)")
    String profile = "10s";

    @Option(names = "--rate", paramLabel = "SHARE", description = "share of transactions sampled, (0, 1] "
            + "(default 0.05)")
    double rate = 0.05;

    @Option(names = "--lock-window", paramLabel = "DURATION", description = "average lock holding time for the "
            + "access rates (default 5ms)")
    String lockWindow = "5ms";

    @Option(names = "--hot", paramLabel = "P", description = "contention likelihood from which a record is hot "
            + "(in the lookup table), (0, 1] (default 0.05)")
    double hot = 0.05;

    @Option(names = "--stats", paramLabel = "FILE", description = "partition these statistics instead of running")
    Path statsIn;

    @Option(names = "--stats-out", paramLabel = "FILE", description = "also write the sampled statistics here")
    Path statsOut;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        Path cwd = Path.of("").toAbsolutePath();
        Experiment e;
        long lockMicros;
        try {
            if (!(rate > 0 && rate <= 1) || !(hot > 0 && hot <= 1)) {
                throw new IllegalArgumentException("--rate and --hot must be in (0, 1]");
            }
            lockMicros = Durations.parseMicros(lockWindow);
            List<String> all = new ArrayList<>(sets);
            all.add("duration=" + profile);
            all.add("warmup=0s");
            all.add("verify=false");
            all.add("durability.enabled=false");
            all.add("cluster.placement=none"); // profile under the default partitioner
            e = ExperimentLoader.loadSweep(List.of(experiment), all, cwd).single();
            if (!e.cluster().mode().equals("embedded")) {
                throw new IllegalArgumentException("partition profiles embedded clusters only (this experiment runs "
                        + e.cluster().mode() + "); add --set cluster.mode=embedded");
            }
        } catch (ConfigException | IllegalArgumentException x) {
            stderr.println(x.getMessage());
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        var catalog = e.workload().database().catalog();
        int servers = e.cluster().dataServers();
        ContentionStats stats;
        if (statsIn != null) {
            try {
                stats = ContentionStats.read(statsIn, catalog);
            } catch (IllegalArgumentException x) {
                stderr.println(x.getMessage());
                stderr.flush();
                return ExitCodes.CONFIG;
            }
        } else {
            ContentionStats s = new ContentionStats(rate);
            long[] t = new long[2];
            try {
                new ExperimentRun(e, new ConsoleListener(stdout), new RunExtension() {
                    @Override
                    public ClusterConfig configure(ClusterConfig cfg) {
                        return cfg.withAccessSampler(s);
                    }

                    @Override
                    public void started(org.tebaldi.bench.driver.LiveRun run) {
                        t[0] = System.nanoTime();
                    }

                    @Override
                    public void stopped() {
                        t[1] = System.nanoTime();
                    }
                }).run();
            } catch (RunFailedException x) {
                stderr.println("profiling run failed: " + x.getMessage());
                stderr.flush();
                return ExitCodes.RUN_FAILED;
            }
            s.window((t[1] - t[0]) / 1000);
            stats = s;
        }
        if (statsOut != null) {
            stats.write(statsOut, catalog);
        }
        Placement p = new ContentionPartitioner(lockMicros, hot, 30).place(stats, servers,
                e.workload().partitioner(servers));
        p.write(out, catalog, servers);
        Map<String, Integer> byServer = new TreeMap<>();
        p.hotKeys().forEach((k, v) -> byServer.merge(catalog.table(k.table()).name() + "@ds" + v, 1, Integer::sum));
        stdout.printf("sampled %d transactions over %.1f s; %d hot records (P_c >= %s): %s%nwrote %s%n",
                stats.txns().size(), stats.windowMicros() / 1e6, p.hotKeys().size(), hot, byServer, out);
        stdout.flush();
        return ExitCodes.OK;
    }
}
