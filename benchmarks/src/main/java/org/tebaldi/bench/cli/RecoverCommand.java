package org.tebaldi.bench.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.durability.DurabilityOptions;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.tc.TransactionCoordinator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi recover EXPERIMENT.yaml --dir DIR}: recovers the data servers' stores a durable run left in
 * {@code DIR} (dissertation §4.5.4: read the logs, drop what did not survive, rebuild the CC state) on an embedded
 * cluster of the experiment's shape, reports how long it took and how many keys each server holds, and stops. The
 * stores are folded (their logs deleted) as by any recovery.
 */
@Command(name = "recover", description = "Recover a durable run's stores (--dir) and report the recovery time.")
final class RecoverCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPERIMENT.yaml", description = "the experiment the stores belong to")
    Path experiment;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "the stores' directory (ds<i> each)")
    Path dir;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a field, as for run")
    List<String> sets = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Experiment e;
        try {
            e = ExperimentLoader.load(experiment, sets, Path.of("").toAbsolutePath());
            if (!Files.isDirectory(dir.resolve("ds0"))) {
                throw new ConfigException("--dir", 0, "", "'" + dir + "' holds no data server store (ds0)",
                        "name the durability.dir of a finished run (default <run dir>/rocksdb)");
            }
        } catch (ConfigException x) {
            err.println(x.getMessage());
            err.flush();
            return ExitCodes.CONFIG;
        }
        ClusterConfig cfg = new ClusterConfig(e.workload().database(), e.tree().tree(), e.cluster().coordinators(),
                e.cluster().dataServers(), e.workload().partitioner(e.cluster().dataServers()), false)
                .withDurability(DurabilityOptions.rocksDb(dir, e.durability().epochMicros(), e.durability().sync()));
        EmbeddedRuntime rt = new EmbeddedRuntime(e.cluster().threads(), 0);
        Cluster cluster = new Cluster(rt, cfg, 1 << 20);
        try {
            if (!cluster.restarted()) {
                err.println("the stores in " + dir + " hold no data");
                return ExitCodes.CONFIG;
            }
            long t0 = System.nanoTime();
            cluster.start();
            while (cluster.dataServers().stream().anyMatch(DataServer::recovering)
                    || cluster.coordinators().stream().anyMatch(TransactionCoordinator::recovering)) {
                Thread.sleep(10);
            }
            double s = (System.nanoTime() - t0) / 1e9;
            for (DataServer d : cluster.dataServers()) {
                out.println(String.format(Locale.ROOT, "ds%d: %,d keys", d.dsIndex(), d.store().keyCount()));
            }
            out.println(String.format(Locale.ROOT, "recovered %d data server(s) in %.2f s", cfg.dataServers(), s));
            out.flush();
            return rt.failures().isEmpty() ? ExitCodes.OK : ExitCodes.RUN_FAILED;
        } finally {
            cluster.close();
        }
    }
}
