package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecBatch;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.CommitProtocol;
import org.tebaldi.server.replica.ReplicaMessages;
import org.tebaldi.server.replica.ReplicationOptions;

/**
 * Primary-backup replication with failover ({@code Cluster#failoverDataServer}; docs/mechanisms.md "Replication"):
 * bank transfers and audits on 3 data servers, each partition replicated on the next data servers (factor 2 or 3),
 * 2PC(sync) and Epoch(async) (commit: epoch, async replication). A primary is crashed — at a random moment, its
 * connections to its backups dropped 2–5 ms before (what it shipped since is lost), or right
 * after a protocol step of one of its transactions: an execute request arrived (before its vote), its vote reached
 * the coordinator (before the decision), the commit arrived (after the decision) — or as a backup, when a write its
 * primary waits for arrived (every data server is both a primary and a backup); the first live
 * backup is promoted from its replica (the dead primary's store is never read) and the cluster recovers. Then: every
 * transaction whose durable notification was sent (with synchronous durability: every commit reply) is committed in
 * the recovered history, the bank total holds, the cluster commits after the take-over, no epoch is partly visible,
 * and the history is serializable. {@code -Dtebaldi.seed=N} reruns one seed.
 */
class ReplicationFailoverSimTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.faultSeeds", 4);

    /** Where the crash is injected. */
    enum When {
        RANDOM, BEFORE_VOTE, AFTER_VOTE, AFTER_DECISION, BACKUP
    }

    static Stream<Arguments> cases() {
        List<Arguments> a = new ArrayList<>();
        List<TreeSpec> trees = List.of(TreeSpec.leaf("2pl", "transfer", "audit"),
                TreeSpec.leaf("tso", "transfer", "audit"),
                TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "transfer"), TreeSpec.leaf("none", "audit")));
        for (When w : When.values()) {
            for (int t = 0; t < trees.size(); t++) {
                a.add(Arguments.of(w, "2pc-sync", trees.get(t)));
                a.add(Arguments.of(w, "epoch-async", trees.get(t)));
            }
        }
        return a.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void aCrashedPrimaryIsReplacedByItsBackupWithoutLosingAcknowledgedCommits(When when, String matrix,
                                                                             TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "failover");
        boolean epoch = matrix.startsWith("epoch");
        List<String> failures = new ArrayList<>();
        for (long seed : DurableBankRun.seeds(SEEDS)) {
            Random rnd = new Random(seed * 31 + when.ordinal());
            int factor = Integer.getInteger("tebaldi.factor", 2 + (int) (seed % 2));
            Map<Integer, MemoryLogStore> replicas = new HashMap<>();
            ReplicationOptions repl = new ReplicationOptions(factor,
                    epoch ? ReplicationOptions.Mode.ASYNC : ReplicationOptions.Mode.SYNC,
                    (p, host, catalog, owner) -> replicas.computeIfAbsent(p * 16 + host, k -> new MemoryLogStore())
                            .open(catalog, owner));
            UnaryOperator<ClusterConfig> configure = c -> (epoch ? c.withCommit(CommitProtocol.EPOCH, 5_000) : c)
                    .withReplication(repl);
            MemoryLogStore[] stores = {new MemoryLogStore(), new MemoryLogStore(), new MemoryLogStore()};
            DurableBankRun run = new DurableBankRun(seed, tree, 6, stores, 3_000, seed % 2 == 0, configure).start();
            int victim = rnd.nextInt(stores.length);
            long earliest = 20_000 + rnd.nextInt(60_000);
            long[] crashedAt = {-1};
            Runnable crash = () -> {
                if (crashedAt[0] < 0) {
                    crashedAt[0] = run.sim.nowMicros();
                    run.sim.watchDeliveries(null);
                    run.cluster.failoverDataServer(victim, 1_000, 3_000 + rnd.nextInt(10_000));
                }
            };
            if (when == When.RANDOM) {
                run.sim.at(earliest, crash);
            } else {
                run.sim.watchDeliveries((to, from, msg) -> {
                    if (run.sim.nowMicros() < earliest || crashedAt[0] >= 0) {
                        return;
                    }
                    boolean hit = switch (when) {
                        case BEFORE_VOTE -> to.equals(NodeId.ds(victim))
                                && (msg instanceof ExecRequest || msg instanceof ExecBatch);
                        case AFTER_VOTE -> from.equals(NodeId.ds(victim)) && msg instanceof ValidateReply v && v.ok();
                        case AFTER_DECISION -> to.equals(NodeId.ds(victim)) && msg instanceof CommitRequest;
                        case BACKUP -> to.equals(NodeId.ds(victim)) && msg instanceof ReplicaMessages.Ship sh
                                && sh.ack() && sh.partition() != victim;
                        default -> false;
                    };
                    if (hit) {
                        run.sim.at(run.sim.nowMicros(), crash);
                    }
                });
            }
            if (when == When.RANDOM) {
                // the victim's connections to its backups drop shortly before it crashes: what it shipped since is
                // lost with it, so only writes that waited for the backups' acknowledgements are safe
                for (int b : repl.backupsOf(victim, stores.length)) {
                    run.sim.faults().dropLink(NodeId.ds(victim), NodeId.ds(b), earliest - 2_000 - rnd.nextInt(3_000),
                            earliest + 60_000);
                }
            }
            run.clients(6, 900_000, rnd);
            try {
                run.sim.runUntil(() -> crashedAt[0] >= 0, 600_000);
                run.sim.runUntil(run.sim.nowMicros() + 30_000); // the take-over (3–13 ms after the crash)
                assertTrue(crashedAt[0] >= 0, "the crash point was never reached (" + run.committed.size() + " committed)");
                assertTrue(run.awaitRecovered(2_000_000), "recovered within 2 virtual s");
                assertEquals(1, run.cluster.promotions(), "one backup promoted");
                int committedAtTakeOver = run.committed.size();
                run.sim.runUntil(1_300_000);
                assertTrue(run.failure() == null, String.valueOf(run.failure()));
                assertTrue(run.cluster.dataServers().stream().noneMatch(DataServer::recovering), "still recovering");
                assertTrue(run.committed.size() > committedAtTakeOver, "the cluster commits after the take-over");
                assertEquals(DurableBankRun.INITIAL * 6, run.total(), "total after the take-over");
                Set<Long> retracted = run.retracted();
                run.assertAcknowledgedKept(retracted);
                if (run.cluster.service(Role.EPOCH) instanceof org.tebaldi.server.epoch.EpochService es) {
                    Set<Long> gone = new HashSet<>(run.lost);
                    gone.addAll(retracted);
                    org.tebaldi.server.sim.EpochCheck.noPartialEpoch(run.cluster, List.of(es.decisions()), gone);
                }
                run.assertSerializable();
            } catch (AssertionError | RuntimeException e) {
                failures.add("seed=" + seed + " (ds" + victim + ", factor " + factor + ", crashed at " + crashedAt[0]
                        + " µs): " + e);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " seeds failed:\n  " + String.join("\n  ", failures));
    }
}
