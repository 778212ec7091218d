package org.tebaldi.autoconf.reconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Trees swapped under load with both reconfiguration protocols, many seeds: bank transfers (two types, "transfer"
 * and "move") and audits keep running while the cluster cycles through trees; every history is serializable, every
 * committed audit sees the total, every swap completes. Partial restart (dissertation §5.5.1) cycles through 2PL,
 * SSI-over-{2PL, none}, TSO and 2PL-over-{RP, none}. Online update (§5.5.2) cycles through trees that differ below
 * a 2PL node — a leaf split into an RP/2PL pair, a leaf's mechanism changed, a change below an RP node (which moves
 * the update one level up) — and one that changes the root (which falls back to partial restart). Half the seeds
 * check their history streamed while they run (docs/architecture.md, "Verification"): once the cluster is quiet
 * the check holds nothing — no transaction without an outcome pins what depends on it across the swaps.
 */
class ReconfigurationSimTest {
    private static final int ACCOUNTS = 6;
    private final Catalog cat = new Catalog();
    private final TableSchema account = cat.add("account", 1, 0, false, Catalog.longCol("balance"));
    private final Database db = new Database(cat);
    private final List<CcTree> restartTrees = new ArrayList<>();
    private final List<CcTree> onlineTrees = new ArrayList<>();

    ReconfigurationSimTest() {
        db.interactive("transfer", false, List.of("account"), "from", "to", "amount");
        db.interactive("move", false, List.of("account"), "from", "to", "amount");
        db.interactive("audit", true, List.of("account"));
        restartTrees.add(CcTree.build(TreeSpec.leaf("2pl", "transfer", "move", "audit"), "2pl"));
        restartTrees.add(CcTree.build(TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "transfer", "move"),
                TreeSpec.leaf("none", "audit")), "ssi"));
        restartTrees.add(CcTree.build(TreeSpec.leaf("tso", "transfer", "move", "audit"), "tso"));
        restartTrees.add(CcTree.build(TreeSpec.inner("2pl", TreeSpec.leaf("rp", "transfer", "move"),
                TreeSpec.leaf("none", "audit")), "rp"));
        onlineTrees.add(tree("2pl", TreeSpec.leaf("2pl", "transfer", "move")));
        onlineTrees.add(tree("2pl", TreeSpec.inner("2pl", TreeSpec.leaf("rp", "transfer"),
                TreeSpec.leaf("2pl", "move"))));
        onlineTrees.add(tree("2pl", TreeSpec.inner("2pl", TreeSpec.leaf("rp", "transfer"),
                TreeSpec.leaf("tso", "move"))));
        onlineTrees.add(tree("2pl", TreeSpec.inner("rp", TreeSpec.leaf("2pl", "transfer"),
                TreeSpec.leaf("2pl", "move"))));
        onlineTrees.add(tree("2pl", TreeSpec.inner("rp", TreeSpec.leaf("rp", "transfer"),
                TreeSpec.leaf("2pl", "move"))));
        onlineTrees.add(tree("ssi", TreeSpec.leaf("2pl", "transfer", "move")));
    }

    /** {@code root{updates, none[audit]}}. */
    private static CcTree tree(String root, TreeSpec updates) {
        return CcTree.build(TreeSpec.inner(root, updates, TreeSpec.leaf("none", "audit")).placeAt("root"),
                root + "/" + CcTree.build(updates, "u").describe());
    }

    private String runSeed(long seed, long forceAbortMicros, boolean online, List<SwapResult> swaps) {
        return runSeed(seed, forceAbortMicros, online, swaps, seed % 4 <= 1);
    }

    /** Runs one seed; with {@code streamed}, checks the history streamed while it runs, else in one batch after. */
    private String runSeed(long seed, long forceAbortMicros, boolean online, List<SwapResult> swaps,
            boolean streamed) {
        List<CcTree> trees = online ? onlineTrees : restartTrees;
        SimulatedRuntime sim = new SimulatedRuntime(seed, seed % 2 == 1 ? SimulatedRuntime.Model.withPauses()
                : SimulatedRuntime.Model.jittery());
        ClusterConfig cfg = new ClusterConfig(db, trees.get(0), 2, 2, null, true);
        Cluster c = new Cluster(sim, cfg, 16).withAllServices();
        NodeId serverId = new NodeId(Role.CONFIGURATOR, 0);
        ReconfigServer server = new ReconfigServer(serverId, sim, 2, 2, trees.get(0), Mechanisms::get);
        c.addNode(serverId, server);
        for (long k = 0; k < ACCOUNTS; k++) {
            c.load(Key.of(account, k), account.row(100L));
        }
        // half the seeds check their history streamed, while they run (bounded memory across swaps)
        org.tebaldi.core.history.HistoryStream stream = streamed ? c.streamHistory(2_000) : null;
        if (stream != null) {
            Runnable[] pass = new Runnable[1];
            pass[0] = () -> {
                stream.check();
                sim.at(sim.nowMicros() + 2_000, pass[0]);
            };
            sim.at(2_000, pass[0]);
        }
        c.start();
        Random rnd = new Random(seed);
        String[] failure = {null};
        long end = 400_000;
        for (int i = 0; i < 6; i++) {
            TxnClient client = c.client(i);
            Random r = new Random(rnd.nextLong());
            sim.at(r.nextInt(100), () -> loop(sim, client, r, end, failure));
        }
        int count = online ? trees.size() : 6;
        for (int s = 1; s <= count; s++) {
            CcTree next = trees.get(s % trees.size());
            sim.at(s * 50_000L, () -> (online ? server.onlineUpdate(next, forceAbortMicros)
                    : server.partialRestart(next, forceAbortMicros)).thenAccept(swaps::add));
        }
        // Clients stop at `end`; a swap still waiting for a clean-up may wait out RP's 1 s step and lock timeouts
        // (deadlocks between groups), so give the last swaps several such timeouts of virtual time to complete.
        sim.runUntil(end + 5_000_000);
        if (failure[0] != null) {
            return failure[0];
        }
        if (swaps.size() != count) {
            return "only " + swaps.size() + " of " + count + " swaps completed";
        }
        if (!same(server.running(), trees.get(count % trees.size()))) {
            return "running " + server.running().describe() + ", expected " + trees.get(count % trees.size());
        }
        // quiet for seconds: every GC epoch collected, so each key holds its newest version only — also the keys
        // last written before a partial restart dropped the epochs that would have pruned them (docs/cluster.md,
        // "Garbage collection"); kept, such chains stayed on the heap for good and every eviction pass rescanned them
        for (DataServer d : c.dataServers()) {
            for (long k = 0; k < ACCOUNTS; k++) {
                var chain = d.store().peek(Key.of(account, k));
                if (chain != null && chain.size() > 1) {
                    return "ds" + d.dsIndex() + " holds " + chain.size() + " versions of account " + k
                            + " once the cluster is quiet: " + chain;
                }
            }
        }
        CheckResult h;
        if (stream != null) {
            // quiet for seconds of virtual time, every node handing over and the check pruning every 2 ms: every
            // transaction has an outcome and every version is final, so nothing can join a cycle any more
            if (stream.heldWithoutOutcome() > 0 || stream.held() > 0) {
                return "the streamed check still holds transactions once the cluster is quiet: "
                        + stream.describeHeld();
            }
            c.finishHistoryStream();
            try {
                h = stream.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
            if (h.committed() == 0) {
                return "the streamed check saw no committed transaction";
            }
        } else {
            h = SerializabilityChecker.check(History.merge(c.historyLogs()));
        }
        if (!h.serializable()) {
            return h.summary(3);
        }
        long total = 0;
        for (DataServer d : c.dataServers()) {
            for (long k = 0; k < ACCOUNTS; k++) {
                var chain = d.store().find(Key.of(account, k));
                Version v = chain == null ? null : chain.latestCommitted();
                total += v == null ? 0 : v.value().getLong("balance");
            }
        }
        return total == 100L * ACCOUNTS ? null : "final total " + total;
    }

    private void loop(SimulatedRuntime sim, TxnClient client, Random r, long end, String[] failure) {
        if (sim.nowMicros() > end || failure[0] != null) {
            return;
        }
        CompletableFuture<?> f;
        if (r.nextInt(4) == 0) {
            f = client.begin("audit", Inputs.NONE, sim.nowMicros()).thenCompose(t -> sum(t, 0, 0)
                    .thenCompose(total -> t.commit().thenApply(x -> {
                        if (total != 100L * ACCOUNTS) {
                            failure[0] = "committed audit saw " + total;
                        }
                        return x;
                    })));
        } else {
            long a = r.nextInt(ACCOUNTS);
            long b = (a + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            String type = r.nextBoolean() ? "transfer" : "move";
            f = client.begin(type, Inputs.of(a, b, 1L), sim.nowMicros()).thenCompose(t ->
                    t.readForUpdate("account", a).thenCompose(ra -> t.readForUpdate("account", b).thenCompose(rb ->
                            t.write(account.row(ra.getLong("balance") - 1), a).thenCompose(x ->
                                    t.write(account.row(rb.getLong("balance") + 1), b))).thenCompose(x -> t.commit())));
        }
        f.whenComplete((v, e) -> {
            Throwable c = e != null && e.getCause() != null ? e.getCause() : e;
            if (c != null && !(c instanceof TxnAbortedException a && a.retryable())) {
                failure[0] = "unexpected failure: " + c;
                return;
            }
            sim.at(sim.nowMicros() + r.nextInt(200), () -> loop(sim, client, r, end, failure));
        });
    }

    private CompletableFuture<Long> sum(org.tebaldi.core.client.Transaction t, long k, long acc) {
        if (k == ACCOUNTS) {
            return CompletableFuture.completedFuture(acc);
        }
        return t.read("account", k).thenCompose(r -> sum(t, k + 1, acc + r.getLong("balance")));
    }

    private static boolean same(CcTree running, CcTree expected) {
        return OnlineUpdatePlan.signature(running.root()).equals(OnlineUpdatePlan.signature(expected.root()));
    }

    private void runSeeds(boolean online, List<SwapResult> swaps) {
        List<String> failures = new ArrayList<>();
        int seeds = Integer.getInteger("tebaldi.seeds", 100);
        for (long seed = 1; seed <= seeds; seed++) {
            List<SwapResult> mine = new ArrayList<>();
            String f = runSeed(seed, seed % 3 == 0 ? 2_000 : 0, online, mine);
            swaps.addAll(mine);
            if (f != null) {
                failures.add("seed=" + seed + ": " + f + " (rerun: -Dtebaldi.seed=" + seed + ")");
            }
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + seeds + " seeds failed:\n"
                + String.join("\n", failures.subList(0, Math.min(5, failures.size()))));
    }

    @Test
    void partialRestartSwapsUnderLoadStaySerializable() {
        List<SwapResult> swaps = new ArrayList<>();
        runSeeds(false, swaps);
        assertTrue(swaps.stream().allMatch(s -> s.protocol().equals("partial-restart")), swaps::toString);
    }

    @Test
    void onlineUpdatesUnderLoadStaySerializable() {
        List<SwapResult> swaps = new ArrayList<>();
        runSeeds(true, swaps);
        long online = swaps.stream().filter(s -> s.protocol().equals("online-update")).count();
        long fallback = swaps.stream().filter(s -> s.protocol().equals("partial-restart")).count();
        assertEquals(swaps.size(), online + fallback, swaps::toString);
        // per seed: 4 of the 6 swaps stay below the root; the swaps to and from the SSI root fall back
        assertEquals(swaps.size() * 4 / 6, online, swaps::toString);
        assertTrue(swaps.stream().filter(s -> s.protocol().equals("partial-restart"))
                .allMatch(s -> s.note() != null && s.note().contains("root")), swaps::toString);
    }

    @Test
    void readLoggedAfterAForceAbortDoesNotPinTheStreamedCheck() {
        // seed 81, partial restart with a 2 ms force-abort: at 203 ms a coordinator force-aborts T0.51 (logging
        // the abort) while its read waits for a lock at ds1; the lock is granted just before the abort request
        // arrives, so ds1 logs the read after T0.51 was complete and dropped by the check. Before the fix it came
        // back as a transaction without an outcome and held 58 transactions after the run, growing with it.
        assertEquals(null, runSeed(81, 2_000, false, new ArrayList<>(), true));
    }

    @Test
    void oneSeedReproduces() {
        long seed = Long.getLong("tebaldi.seed", 4242);
        assertEquals(null, runSeed(seed, 0, true, new ArrayList<>()));
        assertEquals(null, runSeed(seed, 0, false, new ArrayList<>()));
    }
}
