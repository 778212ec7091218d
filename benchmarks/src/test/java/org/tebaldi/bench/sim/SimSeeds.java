package org.tebaldi.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;

/**
 * Runs a workload under one CC tree for several seeds on the simulated runtime (2 TCs, 3 DSs; random delays, node
 * pauses on odd seeds) and collects what went wrong: a failed or stuck transaction, a violated consistency condition,
 * a non-serializable history, a wrong commit count. Used by the SEATS, microbenchmark and YCSB simulation tests.
 */
public final class SimSeeds {
    /** Coordinators and data servers of every simulated cluster. */
    public static final int TCS = 2;
    public static final int DSS = 3;

    /**
     * Totals over the seeds of one (workload, tree) pair.
     *
     * @param committed commits per type
     * @param outputs   sums of procedures' long outputs by {@code type.output}
     * @param problems  one line per failed seed
     * @param retries   retried attempts
     */
    public record Totals(Map<String, Integer> committed, Map<String, Long> outputs, List<String> problems,
                         int retries) {
        /** Commits of all types. */
        public int total() {
            return committed.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    private SimSeeds() {
    }

    /** Loads a shipped tree file ({@code config/trees/<name>.yaml}) for {@code w}'s database. */
    public static CcTree shippedTree(String name, Workload w) {
        return TreeLoader.load(java.nio.file.Path.of("../config/trees/" + name + ".yaml"),
                TreeContext.of(w.database()));
    }

    /** {@link #run(Supplier, CcTree, long, int, int, int, Function)} with the standard mechanisms. */
    public static Totals run(Supplier<Workload> w, CcTree tree, long firstSeed, int seeds, int clients, int txnsEach) {
        return run(w, tree, firstSeed, seeds, clients, txnsEach, Mechanisms::get);
    }

    /**
     * Runs seeds {@code firstSeed .. firstSeed + seeds - 1}, each on a fresh workload and cluster.
     *
     * @param mechanisms how mechanism names resolve (tests plug in a broken one)
     */
    public static Totals run(Supplier<Workload> w, CcTree tree, long firstSeed, int seeds, int clients, int txnsEach,
                             Function<String, Mechanism> mechanisms) {
        Map<String, Integer> committed = new TreeMap<>();
        Map<String, Long> outputs = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        int retries = 0;
        for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
            SimulatedRuntime.Model model = seed % 2 == 1 ? SimulatedRuntime.Model.withPauses()
                    : SimulatedRuntime.Model.jittery();
            SimWorkloadRun run = new SimWorkloadRun(w.get(), tree, seed, model, TCS, DSS, mechanisms);
            try {
                run.runClients(clients, txnsEach);
                ConsistencyResult c = run.consistency();
                if (!c.consistent()) {
                    problems.add("seed=" + seed + " " + c.summary() + ": " + c.problems());
                }
                CheckResult h = run.serializability();
                if (!h.serializable()) {
                    problems.add("seed=" + seed + " " + h.summary(5));
                }
                int total = run.committed().values().stream().mapToInt(Integer::intValue).sum();
                if (total != clients * txnsEach) {
                    problems.add("seed=" + seed + " committed " + total + " of " + clients * txnsEach);
                }
            } catch (AssertionError | RuntimeException e) {
                problems.add("seed=" + seed + " " + e.getMessage());
            } finally {
                run.committed().forEach((k, v) -> committed.merge(k, v, Integer::sum));
                run.outputs().forEach((k, v) -> outputs.merge(k, v, Long::sum));
                retries += run.retries();
                run.close();
            }
        }
        return new Totals(committed, outputs, problems, retries);
    }

    /**
     * Asserts that no seed failed, every type committed, and all transactions committed.
     *
     * @param types the workload's transaction types
     */
    public static void assertClean(String what, Totals t, Collection<String> types, int expectedTotal) {
        assertTrue(t.problems().isEmpty(), () -> what + ": " + t.problems().size() + " seeds failed:\n"
                + String.join("\n", t.problems()));
        for (String type : types) {
            assertTrue(t.committed().getOrDefault(type, 0) > 0, () -> what + ": no " + type + " committed "
                    + t.committed());
        }
        assertEquals(expectedTotal, t.total(), what + ": commits");
        System.out.printf("%s: committed %s, outputs %s, %d retried attempts%n", what, t.committed(), t.outputs(),
                t.retries());
    }
}
