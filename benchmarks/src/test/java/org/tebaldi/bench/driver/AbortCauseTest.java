package org.tebaldi.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.ExperimentFixture;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.bench.run.SimulatedExperimentRun;

/**
 * Back-off per abort cause ({@code retry.byMechanism}, dissertation §4.6.1): which mechanism aborted an attempt is
 * read from its reason ({@link AbortCause}) — pinned on the abort reasons real simulated runs produce under 2PL
 * (wait-die and time-out), SSI and the three-layer tree — and the client waits that mechanism's fixed delay, the
 * exponential back-off otherwise ({@link Backoff}).
 */
class AbortCauseTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    @Test
    void readsTheMechanismFromTheConventionsOfTheReasons() {
        assertEquals("ssi", AbortCause.mechanismOf("ssi: write-write conflict on stock[1, 2] with a concurrent "
                + "transaction of another batch"));
        assertEquals("ssi", AbortCause.mechanismOf("ssi (inner): snapshot read of k misses a newer write"));
        assertEquals("ssi", AbortCause.mechanismOf("ssi/dst: snapshot 5 is older than versions pruned here"));
        assertEquals("rp", AbortCause.mechanismOf("rp: waited more than 1000 ms to enter a step at rp node 3"));
        assertEquals("2pl", AbortCause.mechanismOf("wait-die: T1.5 is younger than a holder of district[1, 2] at 2pl "
                + "node 0"));
        assertEquals("2pl", AbortCause.mechanismOf("lock wait timeout on warehouse[1] after 100 ms at 2pl node 2"));
        assertEquals("2pl", AbortCause.mechanismOf(AbortReasons.category("lock wait timeout on warehouse[1] after 100 "
                + "ms at 2pl node 2")), "also the normalized category of summary.json");
        assertNull(AbortCause.mechanismOf("timed out: not decided within 20.0 ms (a message was lost)"));
        assertNull(AbortCause.mechanismOf("aborted read: writer T1.2 aborted"), "a cascade names no mechanism");
        assertNull(AbortCause.mechanismOf("aborted to reconfigure the CC tree"));
        assertNull(AbortCause.mechanismOf("zzz: not a mechanism"));
        assertNull(AbortCause.mechanismOf(null));
    }

    @Test
    void aMechanismsFixedDelayReplacesTheExponentialBackoff() {
        Backoff b = new Backoff(1000, 8000, Map.of("ssi", 5000L, "2pl", 0L), 42);
        for (int n = 1; n <= 6; n++) {
            assertEquals(5000, b.delayMicros(n, "ssi: pivot"), "fixed, no growth, no jitter");
            assertEquals(0, b.delayMicros(n, "wait-die: T1.1 is younger than a holder of k at 2pl node 1"));
            long d = b.delayMicros(n, "rp: waited more than 1000 ms to enter a step at rp node 3");
            long cap = Math.min(8000, 1000L << (n - 1));
            assertTrue(d >= cap / 2 && d <= cap, "others back off exponentially: " + d);
        }
    }

    /** Abort reasons of a short simulated TPC-C run under {@code tree}, by category. */
    private Map<String, Long> reasons(String tree, String... sets) throws Exception {
        String yaml = """
                name: causes
                workload: {name: tpcc, warehouses: 1, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60}
                tree: %s
                cluster: {mode: simulated, coordinators: 2, dataServers: 2, simulation: {costs: %s}}
                clients: 40
                warmup: 0s
                duration: 400ms
                retry: {backoff: 0us, maxBackoff: 0us, byMechanism: {ssi: 5ms}}
                seed: 3
                """.formatted(ROOT.resolve("config/trees/" + tree + ".yaml"),
                ROOT.resolve("config/costs/this-machine.yaml"));
        RunResult r = new SimulatedExperimentRun(new ExperimentFixture(tmp).load(yaml, sets), new RunListener() { })
                .run();
        return r.driver().abortReasons();
    }

    @Test
    void everyAbortOfARealRunNamesItsMechanism() throws Exception {
        Set<String> seen = new TreeSet<>();
        for (String[] run : new String[][] {{"2pl"}, {"2pl", "treeOptions.2pl.deadlock=timeout",
                "treeOptions.2pl.lockTimeout=2ms"}, {"ssi"}, {"tebaldi-3layer"}}) {
            Map<String, Long> rs = reasons(run[0], java.util.Arrays.copyOfRange(run, 1, run.length));
            assertTrue(!rs.isEmpty(), run[0] + ": the run must abort something to be a test");
            for (String category : rs.keySet()) {
                String m = AbortCause.mechanismOf(category);
                if (m == null) {
                    assertTrue(AbortCause.framework(category), run[0] + ": neither a mechanism's nor the "
                            + "framework's abort: '" + category + "'");
                } else {
                    seen.add(m);
                }
            }
        }
        assertTrue(seen.containsAll(Set.of("2pl", "ssi")), seen.toString());
    }
}
