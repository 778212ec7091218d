package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.history.HistoryLog;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.epoch.EpochService;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.CommitProtocol;

/**
 * COCO's group durability (Lu et al. VLDB 2021, §3) and the injected durable-write latency (§7.4, Fig 11) on the
 * simulated runtime, bank transfers over in-memory stores in synchronous mode: under epoch-based commit no precommit
 * record is synced on its own — each data server syncs once per commit epoch, before it answers the epoch's prepare
 * — while 2PC syncs every precommit before its vote; an injected latency delays every synced write (so the epoch's
 * commit waits for it); and after a crash of every store at a random moment, every acknowledged transaction (in
 * synchronous mode: every commit a client saw) is there after recovery — under 2PL, SSI, TSO and two-level trees.
 */
class GroupDurabilitySimTest {
    private static final CcTree TREE = CcTree.build(TreeSpec.leaf("2pl", "transfer", "audit"), "group");
    private static final long EPOCH = 1_000;

    private static MemoryLogStore[] stores() {
        return new MemoryLogStore[]{new MemoryLogStore(), new MemoryLogStore(), new MemoryLogStore()};
    }

    private static UnaryOperator<ClusterConfig> epochs(long latency) {
        return c -> c.withCommit(CommitProtocol.EPOCH, EPOCH).withDurability(c.durability().withWriteLatency(latency));
    }

    private static DurableBankRun run(long seed, MemoryLogStore[] stores, UnaryOperator<ClusterConfig> cfg) {
        DurableBankRun run = new DurableBankRun(seed, TREE, 6, stores, 3_000, true, cfg).start();
        run.clients(6, 300_000, new Random(seed));
        run.sim.runUntil(800_000);
        assertTrue(run.failure() == null, String.valueOf(run.failure()));
        assertTrue(run.committed.size() >= 5, "committed " + run.committed.size());
        assertEquals(run.committed, run.durable, "synchronous mode: every commit is durable");
        return run;
    }

    @Test
    void underEpochCommitEachDataServerSyncsOncePerEpochNotPerTransaction() {
        for (long seed = 1; seed <= 5; seed++) {
            MemoryLogStore[] s = stores();
            DurableBankRun r = run(seed, s, epochs(0));
            EpochService svc = (EpochService) r.cluster.service(Role.EPOCH);
            long epochs = svc.committedEpochs() + svc.abortedEpochs();
            for (MemoryLogStore m : s) {
                assertEquals(0, m.syncedPrecommits(), "seed " + seed + ": a precommit was synced before its vote");
            }
            for (MemoryLogStore m : s) {
                assertTrue(m.syncs() >= epochs, "seed " + seed + ": every epoch's prepare syncs: " + m.syncs()
                        + " syncs for " + epochs + " epochs");
            }

            MemoryLogStore[] t = stores();
            DurableBankRun twoPc = run(seed, t, c -> c);
            assertTrue(t[0].syncedPrecommits() + t[1].syncedPrecommits() + t[2].syncedPrecommits()
                    >= twoPc.committed.size() / 2, "2PC syncs each writer's precommit before its vote");
        }
    }

    @Test
    void anInjectedLatencyDelaysEverySyncedWriteAndTheEpochCommitWaitsForIt() {
        long latency = 2_000;
        DurableBankRun slow = run(3, stores(), epochs(latency));
        EpochService svc = (EpochService) slow.cluster.service(Role.EPOCH);
        assertTrue(svc.committedEpochs() > 10, "epochs committed: " + svc.committedEpochs());
        assertTrue(svc.meanCommitLatencyMicros() >= latency, "an epoch commits only after the data servers' "
                + "synced write of its records: mean " + svc.meanCommitLatencyMicros() + " µs");
        DurableBankRun fast = run(3, stores(), epochs(0));
        EpochService f = (EpochService) fast.cluster.service(Role.EPOCH);
        assertTrue(f.meanCommitLatencyMicros() < latency, "without the latency: " + f.meanCommitLatencyMicros());
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("org.tebaldi.server.durability.DurabilitySimTest#trees")
    void everyAcknowledgedTransactionSurvivesACrashAfterItsEpochCommitted(TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "group");
        List<String> failures = new ArrayList<>();
        long acknowledged = 0;
        for (long seed = 1; seed <= 30; seed++) {
            Random rnd = new Random(seed * 17);
            MemoryLogStore[] stores = stores();
            long latency = seed % 2 == 0 ? 500 : 0;
            DurableBankRun before = new DurableBankRun(seed, tree, 6, stores, 3_000, true, epochs(latency)).start();
            before.clients(6, 1_000_000, rnd);
            before.sim.runUntil(50_000 + rnd.nextInt(250_000));
            for (MemoryLogStore s : stores) {
                s.crash(rnd, false);
            }
            DurableBankRun after = new DurableBankRun(seed + 1000, tree, 6, stores, 3_000, true, epochs(latency))
                    .start();
            try {
                assertTrue(after.awaitRecovered(5_000_000), "recovered within 5 virtual s");
                assertEquals(DurableBankRun.INITIAL * 6, after.total(), "total after recovery");
                Set<Long> present = new HashSet<>();
                for (HistoryLog h : after.histories()) {
                    h.outcomes().forEach(o -> {
                        if (o.committed()) {
                            present.add(o.txn());
                        }
                    });
                }
                for (long t : before.committed) {
                    assertTrue(present.contains(t), "acknowledged transaction " + t + " is missing after recovery");
                }
                acknowledged += before.committed.size();
            } catch (AssertionError e) {
                failures.add("seed=" + seed + ": " + e.getMessage());
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " seeds failed:\n  " + String.join("\n  ", failures));
        assertTrue(acknowledged > 20, tree.describe() + ": acknowledged before the crashes: " + acknowledged);
    }
}
