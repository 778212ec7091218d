package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.storage.StorageStats;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.storage.StorageOptions;

/**
 * The settle path under every mechanism (docs/performance.md, "Rows off the heap"): with short GC epochs and keys
 * enough that most are idle for an epoch, settled versions leave the heap all the time and are read back into new
 * chains by the next transaction — the histories stay serializable (Adya's checker; list-append's own checker in
 * its workload's final check), the workloads' invariants hold, and the stores did move chains both ways. The same
 * with no memory at all for rows (every settled row goes to the RocksDB disk tier and is read back from there), and
 * with every row on the heap ({@code storage.rows: heap}).
 */
class SettledStorageSimTest {
    private static final int TREES = Integer.getInteger("tebaldi.settleTrees", 24);
    private static final int SEEDS = Integer.getInteger("tebaldi.settleSeeds", 3);

    private record Outcome(List<String> failures, StorageStats stats, long committed) {
    }

    private static Outcome run(int trees, int seeds, UnaryOperator<ClusterConfig> configure) {
        List<Supplier<SimWorkload>> workloads = List.of(() -> new ListAppendWorkload(40),
                () -> new BankWorkload(60, true), () -> new MixWorkload(40), () -> new ListAppendWorkload(30, 3),
                () -> new BankWorkload(50));
        List<String> failures = new ArrayList<>();
        StorageStats total = StorageStats.EMPTY;
        long committed = 0;
        for (int i = 1; i <= trees; i++) {
            Supplier<SimWorkload> w = workloads.get(i % workloads.size());
            TreeSpec spec = new RandomTrees(w.get().database(), 33_000 + i, 3).next();
            CcTree tree = CcTree.build(spec, "settle#" + i);
            for (long seed = 1; seed <= seeds; seed++) {
                SimHarness.Stats st = new SimHarness.Stats();
                SimHarness h = new SimHarness(w.get(), tree).clients(6, 40).gcEpoch(2_000).configure(configure)
                        .model(seed % 2 == 1 ? SimulatedRuntime.Model.withPauses() : SimulatedRuntime.Model.jittery());
                try {
                    Cluster c = h.run(seed, st);
                    CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
                    if (!r.serializable()) {
                        failures.add("tree #" + i + " " + tree.describe() + " seed " + seed + ": " + r.summary(5));
                    }
                    for (DataServer d : c.dataServers()) {
                        total = total.plus(d.store().stats());
                        d.store().close();
                    }
                } catch (RuntimeException | AssertionError e) {
                    failures.add("tree #" + i + " " + tree.describe() + " seed " + seed + ": " + e);
                }
                committed += st.committed;
            }
        }
        return new Outcome(failures, total, committed);
    }

    @Test
    void settledVersionsLeaveTheHeapAndComeBackUnderRandomTrees() {
        Outcome o = run(TREES, SEEDS, c -> c);
        assertTrue(o.failures().isEmpty(), () -> o.failures().size() + " failed:\n  "
                + String.join("\n  ", o.failures().subList(0, Math.min(10, o.failures().size()))));
        System.out.println("settle path: " + o.committed() + " committed; " + o.stats());
        assertTrue(o.stats().evicted() > 1_000, "chains left the heap: " + o.stats());
        assertTrue(o.stats().readBack() > 1_000, "and were read back: " + o.stats());
    }

    @Test
    void withNoMemoryForRowsEverySettledRowGoesToDiskAndComesBack() {
        Outcome o = run(6, 2, c -> c.withStorage(StorageOptions.bounded(0, null)));
        assertTrue(o.failures().isEmpty(), () -> String.join("\n  ", o.failures()));
        System.out.println("disk tier: " + o.committed() + " committed; " + o.stats());
        assertTrue(o.stats().readBack() > 100, "rows were read back: " + o.stats());
        assertTrue(o.stats().diskKeys() > 0, "rows live on disk: " + o.stats());
    }

    @Test
    void everyRowOnTheHeapStillWorks() {
        Outcome o = run(4, 2, c -> c.withStorage(StorageOptions.HEAP));
        assertTrue(o.failures().isEmpty(), () -> String.join("\n  ", o.failures()));
        assertTrue(o.stats().evicted() == 0 && o.stats().offHeapBytes() == 0, o.stats().toString());
    }
}
