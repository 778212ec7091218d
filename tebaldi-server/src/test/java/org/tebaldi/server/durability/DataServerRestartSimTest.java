package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.ds.DataServer;

/**
 * One data server crashes mid-run — losing a random suffix of its unsynced log writes, or none — and restarts from
 * its log while the coordinators, the other data servers and the clients keep running ({@code
 * Cluster#restartDataServer}): the cluster runs a recovery round and serves again; every transaction whose durable
 * notification was sent is still there, the bank total holds, the cluster commits after the restart, and the
 * history (commits lost in recovery retracted) is serializable. Seeds as in {@link DurabilitySimTest}
 * ({@code -Dtebaldi.seed=N}).
 */
class DataServerRestartSimTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.tebaldi.server.durability.DurabilitySimTest#trees")
    void aDataServerCrashesAndRestartsFromItsLogWhileTheOthersRun(TreeSpec spec) {
        restarts(spec, c -> c);
    }

    /**
     * The same under epoch-based commit (COCO's participant failure): the epoch the data server fails in aborts, a
     * recovering server cannot prepare (epochs abort until it recovered), and then epochs commit again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.tebaldi.server.durability.DurabilitySimTest#trees")
    void aDataServerCrashesAndRestartsUnderEpochCommit(TreeSpec spec) {
        restarts(spec, c -> c.withCommit(org.tebaldi.server.node.CommitProtocol.EPOCH, 5_000));
    }

    private static void restarts(TreeSpec spec, java.util.function.UnaryOperator<org.tebaldi.server.node.ClusterConfig> configure) {
        CcTree tree = CcTree.build(spec, "ds-restart");
        List<String> failures = new ArrayList<>();
        for (long seed : DurableBankRun.seeds(6)) {
            Random rnd = new Random(seed * 17);
            MemoryLogStore[] stores = new MemoryLogStore[3];
            for (int i = 0; i < stores.length; i++) {
                stores[i] = new MemoryLogStore();
            }
            DurableBankRun run = new DurableBankRun(seed, tree, 6, stores, 3_000, seed % 2 == 0, configure).start();
            int ds = rnd.nextInt(stores.length);
            long crashAt = 20_000 + rnd.nextInt(100_000);
            boolean keepAll = seed % 3 == 0;
            int[] committedAtRestart = {-1};
            run.clients(6, 500_000, rnd);
            run.sim.at(crashAt, () -> run.cluster.restartDataServer(ds, 1_000, 5_000 + rnd.nextInt(20_000),
                    () -> stores[ds].crash(rnd, keepAll)));
            run.sim.runUntil(crashAt + 26_000); // the restart happened (5–25 ms after the crash)
            try {
                assertTrue(run.awaitRecovered(2_000_000), "recovered within 2 virtual s");
                committedAtRestart[0] = run.committed.size();
                run.sim.runUntil(900_000);
                assertTrue(run.failure() == null, String.valueOf(run.failure()));
                assertTrue(run.cluster.dataServers().stream().noneMatch(DataServer::recovering), "still recovering");
                assertTrue(run.committed.size() > committedAtRestart[0], "the cluster commits after the restart");
                assertEquals(DurableBankRun.INITIAL * 6, run.total(), "total after recovery");
                Set<Long> present = new HashSet<>();
                for (HistoryLog h : run.histories()) {
                    h.outcomes().forEach(o -> {
                        if (o.committed()) {
                            present.add(o.txn());
                        }
                    });
                }
                for (long t : run.durable) {
                    assertTrue(present.contains(t), "durable transaction " + t + " is missing after recovery");
                }
                if (run.cluster.service(org.tebaldi.core.runtime.Role.EPOCH)
                        instanceof org.tebaldi.server.epoch.EpochService es) {
                    assertTrue(es.abortedEpochs() > 0, "the data server's crash aborted no epoch");
                    assertTrue(es.committedEpochs() > 0, "no epoch committed");
                    Set<Long> retracted = new HashSet<>(run.lost);
                    retracted.addAll(run.retracted());
                    org.tebaldi.server.sim.EpochCheck.noPartialEpoch(run.cluster, List.of(es.decisions()), retracted);
                }
                run.assertSerializable();
            } catch (AssertionError e) {
                failures.add("seed=" + seed + " (ds" + ds + " crashed at " + crashAt + " µs): " + e.getMessage());
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " seeds failed:\n  " + String.join("\n  ", failures));
    }
}
