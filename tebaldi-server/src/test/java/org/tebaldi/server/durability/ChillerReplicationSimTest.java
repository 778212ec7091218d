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
import org.tebaldi.cc.chiller.InnerHost;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.ValidateRequest;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Partitioner;
import org.tebaldi.server.replica.ReplicaMessages;
import org.tebaldi.server.replica.ReplicationOptions;

/**
 * Chiller's inner-host replication (Zamanian et al., SIGMOD 2020 §5; docs/mechanisms.md "Chiller"): a flat
 * {@code chiller} tree over bank accounts that are all hot (each transfer's inner host is its first account's data
 * server), 3 data servers, 2PC with sync or async replication (factor 2 or 3). (1) While the inner host's links to
 * its backups are down, no transfer whose inner region it hosts is reported committed — its vote waits for the
 * backups' acknowledgement of the released writes in both modes — and they commit again once the links are back; without the waits (async mode commits at once) it fails. (2) The inner host
 * crashes after releasing its hot locks — right after a validation of a transaction whose inner region it hosts
 * reached it (before its backups acknowledged), right after a backup's acknowledgement reached it, or right after
 * its yes vote reached the coordinator — and its backup takes over ({@code Cluster#failoverDataServer}): every
 * acknowledged (durable) transaction is still there, the bank total holds, the cluster commits again, and the
 * history is serializable. {@code -Dtebaldi.seed=N} reruns one seed.
 */
class ChillerReplicationSimTest {
    private static final int ACCOUNTS = 12;
    private static final long DOWN_FROM = 20_000;
    private static final long DOWN_UNTIL = 80_000;

    /** Where the inner host is crashed. */
    enum When {
        RELEASED, ACKED, VOTED
    }

    /** Every account hot, hosted at data server {@code id % 3}. */
    private static final Partitioner ALL_HOT = new Partitioner() {
        @Override
        public int partition(Key key) {
            return (int) Math.floorMod(key.part(0), 3L);
        }

        @Override
        public boolean hot(Key key) {
            return true;
        }
    };

    private static DurableBankRun cluster(long seed, ReplicationOptions.Mode mode, int factor, boolean syncDurable,
                                          Map<Integer, MemoryLogStore> replicas) {
        ReplicationOptions repl = new ReplicationOptions(factor, mode, (p, host, catalog, owner) ->
                replicas.computeIfAbsent(p * 16 + host, k -> new MemoryLogStore()).open(catalog, owner));
        UnaryOperator<ClusterConfig> configure = c -> c.withPartitioner(ALL_HOT).withReplication(repl);
        MemoryLogStore[] stores = {new MemoryLogStore(), new MemoryLogStore(), new MemoryLogStore()};
        return new DurableBankRun(seed, CcTree.build(TreeSpec.leaf("chiller", "transfer", "audit"), "chiller"),
                ACCOUNTS, stores, 3_000, syncDurable, configure).start();
    }

    static Stream<Arguments> modes() {
        return Stream.of(Arguments.of(ReplicationOptions.Mode.SYNC), Arguments.of(ReplicationOptions.Mode.ASYNC));
    }

    /**
     * The inner host's links to its backups are down from 20 to 80 ms (what it ships queues): no transfer whose
     * inner host it is gets its commit reply from 30 ms (its vote left before the links went down, plus jitter) to
     * 80 ms; inner regions there commit before and again afterwards. (Other servers' inner regions may stall too:
     * the inner host is also a backup of its neighbours.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void noInnerRegionIsReportedCommittedBeforeItsBackupsHoldIt(ReplicationOptions.Mode mode) {
        List<String> failures = new ArrayList<>();
        for (long seed : DurableBankRun.seeds(4)) {
            int victim = (int) (seed % 3);
            int factor = 2 + (int) (seed / 2 % 2);
            DurableBankRun run = cluster(seed, mode, factor, false, new HashMap<>());
            for (int b : new ReplicationOptions(factor, mode, null).backupsOf(victim, 3)) {
                run.sim.faults().dropLink(NodeId.ds(victim), NodeId.ds(b), DOWN_FROM, DOWN_UNTIL);
            }
            List<long[]> commits = new ArrayList<>(); // {time µs, from account, to account}
            Random rnd = new Random(seed);
            for (int i = 0; i < 6; i++) {
                TxnClient cl = run.cluster.client(i);
                Random r = new Random(rnd.nextLong());
                run.sim.at(r.nextInt(200), () -> transfers(run, cl, r, 400_000, commits));
            }
            run.sim.runUntil(600_000);
            try {
                long during = commits.stream().filter(c -> c[0] >= DOWN_FROM + 10_000 && c[0] < DOWN_UNTIL
                        && ALL_HOT.partition(key(run, c[1])) == victim).count();
                long before = commits.stream().filter(c -> c[0] < DOWN_FROM
                        && ALL_HOT.partition(key(run, c[1])) == victim).count();
                long after = commits.stream().filter(c -> c[0] >= DOWN_UNTIL
                        && ALL_HOT.partition(key(run, c[1])) == victim).count();
                long waits = run.cluster.dataServers().get(victim).replication()
                        .orElseThrow().replicatedLog().innerHostWaits();
                assertEquals(0, during, during + " transfers with their inner region at ds" + victim
                        + " were reported committed while its backups could not acknowledge");
                assertTrue(before > 0, "no inner region at ds" + victim + " committed before the links went down");
                assertTrue(after > 0, "no inner region at ds" + victim + " committed after the links came back");
                assertTrue(waits > 0, "no inner-host vote waited for the backups");
                assertEquals(DurableBankRun.INITIAL * ACCOUNTS, run.total(), "total");
                CheckResult c = SerializabilityChecker.check(History.merge(run.histories()));
                assertTrue(c.serializable(), c.summary());
            } catch (AssertionError e) {
                failures.add("seed=" + seed + " (ds" + victim + ", factor " + factor + "): " + e.getMessage());
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " seeds failed:\n  " + String.join("\n  ", failures));
    }

    private static Key key(DurableBankRun run, long account) {
        return Key.of(run.account, account);
    }

    /** A client's closed loop of transfers until {@code until} µs; each commit recorded with its reply time. */
    private static void transfers(DurableBankRun run, TxnClient cl, Random r, long until, List<long[]> commits) {
        if (run.sim.nowMicros() >= until) {
            return;
        }
        long a = r.nextInt(ACCOUNTS);
        long b = (a + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        long amount = 1 + r.nextInt(20);
        cl.begin("transfer", Inputs.of(a, b, amount), run.sim.nowMicros()).thenCompose(t ->
                t.read("account", a).thenCompose(ra -> t.read("account", b).thenCompose(rb ->
                        t.write(run.account.row(ra.getLong("balance") - amount), a).thenCompose(x ->
                                t.write(run.account.row(rb.getLong("balance") + amount), b)).thenCompose(x ->
                                t.commit()))))
                .whenComplete((ci, e) -> {
                    if (e == null) {
                        commits.add(new long[] {run.sim.nowMicros(), a, b});
                    }
                    run.sim.at(run.sim.nowMicros() + 50 + r.nextInt(500), () -> transfers(run, cl, r, until,
                            commits));
                });
    }

    static Stream<Arguments> crashes() {
        List<Arguments> a = new ArrayList<>();
        for (When w : When.values()) {
            a.add(Arguments.of(w, ReplicationOptions.Mode.SYNC));
            a.add(Arguments.of(w, ReplicationOptions.Mode.ASYNC));
        }
        return a.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("crashes")
    void theInnerHostCrashesAfterReleasingAndItsBackupTakesOver(When when, ReplicationOptions.Mode mode) {
        List<String> failures = new ArrayList<>();
        for (long seed : DurableBankRun.seeds(4)) {
            Random rnd = new Random(seed * 31 + when.ordinal());
            int factor = 2 + (int) (seed % 2);
            int victim = rnd.nextInt(3);
            DurableBankRun run = cluster(seed, mode, factor, seed % 2 == 0, new HashMap<>());
            long earliest = 20_000 + rnd.nextInt(60_000);
            long[] crashedAt = {-1};
            Runnable crash = () -> {
                if (crashedAt[0] < 0) {
                    crashedAt[0] = run.sim.nowMicros();
                    run.sim.watchDeliveries(null);
                    run.cluster.failoverDataServer(victim, 1_000, 3_000 + rnd.nextInt(10_000));
                }
            };
            Set<Long> hosted = new HashSet<>(); // transactions whose validation reached the victim as inner host
            run.sim.watchDeliveries((to, from, msg) -> {
                if (msg instanceof ValidateRequest v && to.equals(NodeId.ds(victim)) && innerHost(v) == victim) {
                    hosted.add(v.txnId());
                }
                if (run.sim.nowMicros() < earliest || crashedAt[0] >= 0) {
                    return;
                }
                boolean hit = switch (when) {
                    case RELEASED -> msg instanceof ValidateRequest v && to.equals(NodeId.ds(victim))
                            && innerHost(v) == victim;
                    case ACKED -> msg instanceof ReplicaMessages.Ack ack && to.equals(NodeId.ds(victim))
                            && ack.partition() == victim;
                    case VOTED -> msg instanceof ValidateReply v && v.ok() && from.equals(NodeId.ds(victim))
                            && hosted.contains(v.txnId());
                };
                if (hit) {
                    run.sim.at(run.sim.nowMicros(), crash);
                }
            });
            run.clients(6, 900_000, rnd);
            try {
                run.sim.runUntil(() -> crashedAt[0] >= 0, 600_000);
                assertTrue(crashedAt[0] >= 0, "the crash point was never reached");
                run.sim.runUntil(run.sim.nowMicros() + 30_000);
                assertTrue(run.awaitRecovered(2_000_000), "recovered within 2 virtual s");
                int committedAtTakeOver = run.committed.size();
                run.sim.runUntil(1_300_000);
                assertTrue(run.failure() == null, String.valueOf(run.failure()));
                assertEquals(1, run.cluster.promotions(), "one backup promoted");
                assertTrue(run.committed.size() > committedAtTakeOver, "the cluster commits after the take-over");
                assertEquals(DurableBankRun.INITIAL * ACCOUNTS, run.total(), "total after the take-over");
                run.assertAcknowledgedKept(run.retracted());
                run.assertSerializable();
            } catch (AssertionError | RuntimeException e) {
                failures.add("seed=" + seed + " (ds" + victim + ", factor " + factor + ", crashed at " + crashedAt[0]
                        + " µs): " + e);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " seeds failed:\n  " + String.join("\n  ", failures));
    }

    /** The inner host a validation request names (Chiller's per-request metadata), or -1. */
    private static int innerHost(ValidateRequest v) {
        if (v.meta() != null) {
            for (Object m : v.meta()) {
                if (m instanceof InnerHost h) {
                    return h.server();
                }
            }
        }
        return -1;
    }
}
