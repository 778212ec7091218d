package org.tebaldi.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.server.zk.ZkConnection;
import org.tebaldi.server.zk.ZkPaths;

/**
 * Process mode with {@code cluster.tls: true} end to end (docs/cluster.md, "Security"): every node JVM and the
 * runner talk mutual TLS with the certificates the runner generated into {@code <run dir>/cluster/tls}, the bank
 * run commits and its history is serializable and consistent, no connection was rejected, every node logged that
 * it runs TLS, the keys are owner-only, and during the run a ZooKeeper client without the cluster's credentials
 * gets {@code NoAuth} reading the manifest that holds the cluster secret. The run ends once its window lasted 2 s
 * and saw 20 commits (its duration is only a bound).
 */
class ProcessModeTlsIT {
    @TempDir
    Path tmp;

    @Test
    void aTlsClusterOfNodeProcessesRunsAndItsZnodesAreClosedToOutsiders() throws Exception {
        var e = ExperimentLoader.parse("""
                name: bank-tls
                workload: {name: bank, accounts: 200, auditRatio: 0.2}
                tree: {root: {cc: 2pl, txns: [transfer, audit]}}
                cluster: {mode: processes, dataServers: 2, coordinators: 2, threads: 1, tls: true}
                clients: 4
                warmup: 1s
                duration: 300s
                verify: true
                """, tmp.resolve("x.yaml"), List.of(), tmp);
        AtomicReference<ProcessExperimentRun> holder = new AtomicReference<>();
        AtomicReference<String> outsider = new AtomicReference<>("not tried");
        RunExtension ender = new RunExtension() {
            @Override
            public void started(LiveRun run) {
                CompletableFuture.runAsync(() -> {
                    try (CuratorFramework zk = ZkConnection.open(holder.get().cluster().zkConnectString(), 10_000,
                            15_000)) {
                        zk.getData().forPath(new ZkPaths("bank-tls").config());
                        outsider.set("read the manifest");
                    } catch (KeeperException.NoAuthException expected) {
                        outsider.set("NoAuth");
                    } catch (Exception x) {
                        outsider.set(x.toString());
                    }
                    try {
                        Waits.until(() -> Waits.since(run.measureStartNanos(), 0), 180);
                        long base = run.commits();
                        Waits.until(() -> Waits.since(run.measureStartNanos(), 2) && run.commits() - base > 20, 180);
                    } finally {
                        run.finish();
                    }
                });
            }
        };
        ProcessExperimentRun run = new ProcessExperimentRun(e, new RunListener() {
        }, tmp.resolve("nodes"), null, NodeLauncher.command(), ender);
        holder.set(run);
        RunResult r = run.run();
        assertTrue(r.driver().total().committed() > 20, "committed " + r.driver().total().committed());
        assertTrue(r.checks().serializable(), r.checks().report());
        assertTrue(r.checks().consistent(), () -> r.checks().consistency().summary());
        assertEquals("NoAuth", outsider.get(), "a client without the credentials reading the manifest");
        Path tls = tmp.resolve("cluster").resolve("tls");
        for (String n : List.of("ca.crt", "runner.crt", "tc0.crt", "tc1.crt", "ds0.crt", "ds1.crt")) {
            assertTrue(Files.exists(tls.resolve(n)), n);
        }
        for (Path secret : List.of(tls.resolve("ds0.key"), tls.resolve("runner.key"),
                tmp.resolve("cluster").resolve("zk-digest"))) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)), secret
                    + "");
        }
        for (String n : List.of("tc0", "tc1", "ds0", "ds1")) {
            String log = Files.readString(tmp.resolve("nodes").resolve(n + ".log"));
            assertTrue(log.contains("mutual TLS"), n + " runs TLS:\n" + log);
            assertFalse(log.contains("closing connection"), n + " rejected no connection:\n" + log);
        }
    }
}
