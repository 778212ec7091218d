package org.tebaldi.bench.listappend;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.tebaldi.bench.sim.SimDriver;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.bench.workload.Workloads;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.history.listappend.ListAppendChecker;
import org.tebaldi.core.history.listappend.ListAppendRecorder;
import org.tebaldi.core.history.listappend.ListAppendTxns;
import org.tebaldi.core.history.listappend.Result;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * The list-append workload runs under every shipped tree ({@code config/trees/*.yaml}): its types are exactly the
 * tree's leaf types (read-only where a shipped workload declares them so or where the leaf's mechanism is a
 * read-only leaf), on the simulated runtime (2 TCs, 2 DSs, 1 ms GC epochs, node pauses on odd seeds), checked by the
 * black-box list-append checker (with final reads) and the engine-order serializability checker.
 */
class ListAppendShippedTreesTest {
    private static final int SEEDS = Integer.getInteger("tebaldi.listAppendSeeds", 3);
    private static final int CLIENTS = 4;
    private static final int TXNS_EACH = 12;

    /**
     * Whether {@code tree} is a read-committed measurement baseline ({@code roReads: read-committed}, DST's "RC"):
     * not serializable by design, so left out here; such a file must say so in its header.
     */
    private static boolean readCommittedBaseline(Path tree) {
        try {
            String text = Files.readString(tree);
            if (!text.contains("roReads: read-committed")) {
                return false;
            }
            assertTrue(text.contains("NOT serializable"), tree + " reads committed data without saying it is NOT"
                    + " serializable in its header");
            return true;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void everyShippedTreePassesBothCheckers() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("../config/trees"))) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).filter(p -> !readCommittedBaseline(p)).sorted()
                    .toList();
        }
        Set<String> declaredReadOnly = shippedReadOnlyTypes();
        List<String> problems = new ArrayList<>();
        long committed = 0;
        long edges = 0;
        for (Path f : files) {
            for (long seed = 1; seed <= SEEDS; seed++) {
                try {
                    Result r = run(f, seed, declaredReadOnly);
                    committed += r.stats().committed();
                    edges += r.stats().edges().values().stream().mapToLong(Long::longValue).sum();
                } catch (AssertionError | RuntimeException e) {
                    problems.add(f.getFileName() + " seed=" + seed + ": " + e.getMessage());
                }
            }
        }
        assertTrue(problems.isEmpty(), () -> problems.size() + " runs failed:\n" + String.join("\n", problems));
        assertTrue(files.size() >= 30 && committed >= files.size() * SEEDS * CLIENTS * TXNS_EACH && edges > 0,
                files.size() + " trees, " + committed + " committed, " + edges + " edges");
        System.out.printf("list-append under %d shipped trees x %d seeds: %d committed, %d inferred edges%n",
                files.size(), SEEDS, committed, edges);
    }

    /** Types any registered workload declares read-only (each created with its default options). */
    private static Set<String> shippedReadOnlyTypes() {
        Set<String> ro = new TreeSet<>();
        for (String name : Workloads.all().keySet()) {
            for (TxnType t : Workloads.create(WorkloadOptions.of(name, Map.of())).database().types()) {
                if (t.readOnly()) {
                    ro.add(t.name());
                }
            }
        }
        return ro;
    }

    /** Leaf types in tree order, the read-only ones, and the instanceBy input (at most one per tree). */
    private record Shape(List<String> types, Set<String> readOnly, String instanceBy) {
    }

    private static void walk(TreeSpec s, Set<String> declaredRo, List<String> types, Set<String> ro, String[] inst) {
        for (TreeSpec c : s.children) {
            walk(c, declaredRo, types, ro, inst);
        }
        boolean roLeaf = s.txns.isEmpty() ? false : Mechanisms.get(s.cc).readOnlyLeaf();
        for (String t : s.txns) {
            types.add(t);
            if (roLeaf || declaredRo.contains(t)) {
                ro.add(t);
            }
        }
        if (s.instanceBy != null) {
            if (inst[0] != null && !inst[0].equals(s.instanceBy)) {
                throw new IllegalStateException("two instanceBy inputs: " + inst[0] + ", " + s.instanceBy);
            }
            inst[0] = s.instanceBy;
        }
    }

    private static Result run(Path file, long seed, Set<String> declaredRo) {
        List<String> types = new ArrayList<>();
        Set<String> ro = new LinkedHashSet<>();
        String[] inst = {null};
        walk(TreeLoader.readSpec(file), declaredRo, types, ro, inst);
        ListAppendTxns txns = new ListAppendTxns(types, ro, inst[0],
                new ListAppendTxns.Options(3, 4, 0.25, 0.05, 0.25), new ListAppendRecorder());
        CcTree tree = TreeLoader.load(file, TreeContext.of(txns.database()));
        SimulatedRuntime sim = new SimulatedRuntime(seed, seed % 2 == 1 ? SimulatedRuntime.Model.withPauses()
                : SimulatedRuntime.Model.jittery());
        Cluster cluster = new Cluster(sim, new ClusterConfig(txns.database(), tree, 2, 2, null, true)
                .withGcEpoch(1_000), 64);
        try {
            txns.load(cluster::load);
            cluster.start();
            Throwable[] failure = {null};
            int[] finished = {0};
            Random rnd = new Random(seed);
            for (int c = 0; c < CLIENTS; c++) {
                Random r = new Random(rnd.nextLong());
                TxnClient client = cluster.client(c);
                sim.at(r.nextInt(200), () -> loop(sim, txns, client, r, sim.nowMicros(), TXNS_EACH, finished,
                        failure));
            }
            SimDriver.await(sim, cluster, seed, () -> finished[0] == CLIENTS, () -> failure[0],
                    () -> finished[0] + " of " + CLIENTS + " clients finished");
            boolean[] read = {false};
            txns.finalReads(cluster.client(0)).whenComplete((v, e) -> {
                read[0] = e == null;
                failure[0] = e;
            });
            SimDriver.await(sim, cluster, seed, () -> read[0], () -> failure[0], () -> "the final reads");
            Result r = ListAppendChecker.check(txns.recorder().history());
            assertTrue(r.valid(), () -> "seed=" + seed + " " + r.summary(5));
            CheckResult h = SerializabilityChecker.check(History.merge(cluster.historyLogs()));
            assertTrue(h.serializable(), () -> "seed=" + seed + " " + h.summary(5));
            return r;
        } finally {
            cluster.close();
        }
    }

    /** A closed-loop client: {@code left} commits, retrying aborted attempts after 0.1–2 ms of back-off. */
    private static void loop(SimulatedRuntime sim, ListAppendTxns txns, TxnClient client, Random r, long priority,
                             int left, int[] finished, Throwable[] failure) {
        if (left == 0) {
            finished[0]++;
            return;
        }
        txns.attempt(client, r, priority).whenComplete((ok, e) -> {
            if (e != null) {
                failure[0] = failure[0] != null ? failure[0] : SimDriver.unwrap(e);
            } else if (ok) {
                sim.at(sim.nowMicros() + r.nextInt(100), () -> loop(sim, txns, client, r, sim.nowMicros(), left - 1,
                        finished, failure));
            } else {
                sim.at(sim.nowMicros() + 100 + r.nextInt(2000), () -> loop(sim, txns, client, r, priority, left,
                        finished, failure));
            }
        });
    }
}
