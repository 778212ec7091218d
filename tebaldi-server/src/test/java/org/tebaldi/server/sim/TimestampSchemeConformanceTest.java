package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.service.TsMessages;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;

/**
 * The timestamp-scheme SPI beyond SSI: TSO leaves and OCC leaves with {@code timestamps: dst} — alone,
 * under a 2PL parent and under an SSI root — serializable over many seeds, also under clock skew of ±50 ms with
 * ±10 % drift and, on even seeds, one coordinator 350 ms behind real time and the other 150 ms ahead (the first lies
 * beyond {@code DstFloor}'s 200 ms slack behind every data server, so its TSO transactions are refused by the floors
 * until its clock learned them from the refusals — without that it would be refused for ever); and
 * no timestamp-service message at all.
 */
class TimestampSchemeConformanceTest {
    private static TreeSpec dst(TreeSpec leaf) {
        return leaf.option("timestamps", "dst");
    }

    static Stream<Arguments> cases() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> procBank = () -> new BankWorkload(6, true);
        Supplier<SimWorkload> mix = () -> new MixWorkload(5);
        return Stream.of(
                Arguments.of("bank", bank, dst(TreeSpec.leaf("tso", "transfer", "audit"))),
                Arguments.of("bank-procedures", procBank, dst(TreeSpec.leaf("tso", "transfer", "audit"))),
                Arguments.of("mix", mix, dst(TreeSpec.leaf("tso", "rw1", "rw2", "ro"))),
                Arguments.of("mix", mix, TreeSpec.inner("2pl", dst(TreeSpec.leaf("tso", "rw1")),
                        TreeSpec.leaf("2pl", "rw2", "ro"))),
                Arguments.of("bank-procedures", procBank, TreeSpec.inner("ssi",
                        dst(TreeSpec.leaf("tso", "transfer")), TreeSpec.leaf("none", "audit"))),
                Arguments.of("bank", bank, dst(TreeSpec.leaf("occ", "transfer", "audit"))),
                Arguments.of("mix", mix, dst(TreeSpec.leaf("occ", "rw1", "rw2", "ro"))),
                Arguments.of("mix", mix, TreeSpec.inner("2pl", dst(TreeSpec.leaf("occ", "rw1")),
                        TreeSpec.leaf("2pl", "rw2", "ro"))));
    }

    @ParameterizedTest(name = "{0} under {2}")
    @MethodSource("cases")
    void serializableOverManySeeds(String name, Supplier<SimWorkload> workload, TreeSpec spec) {
        CcTree tree = CcTree.build(spec, name);
        SimSuite.Totals t = SimSuite.run(workload, tree, SimSuite.seeds(100));
        assertTrue(t.failures().isEmpty(), () -> SimSuite.report(t));
        System.out.printf("%s under %s: %d seeds, %d committed, %d aborted attempts%n", name, tree.describe(),
                t.runs(), t.committed(), t.aborted());
    }

    static Stream<Arguments> skewed() {
        return Stream.of(
                Arguments.of(dst(TreeSpec.leaf("tso", "rw1", "rw2", "ro"))),
                Arguments.of(TreeSpec.inner("2pl", dst(TreeSpec.leaf("tso", "rw1")), TreeSpec.leaf("2pl", "rw2", "ro"))),
                Arguments.of(dst(TreeSpec.leaf("occ", "rw1", "rw2", "ro"))));
    }

    /** Skewed clocks: serializable, every client finishes (refused transactions retry above the floor), no service. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("skewed")
    void serializableUnderClockSkew(TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "skew");
        List<String> failures = new ArrayList<>();
        long committed = 0;
        long seen = 0;
        long[] seeds = SimSuite.seeds(100);
        for (long seed : seeds) {
            SimulatedRuntime[] ran = new SimulatedRuntime[1];
            SimHarness h = new SimHarness(new MixWorkload(5), tree).clients(6, 40)
                    .model(SimulatedRuntime.Model.jittery()).onSim((sim, c) -> {
                        ran[0] = sim;
                        Random r = new Random(seed);
                        for (NodeId n : sim.nodeIds()) {
                            sim.faults().clockSkew(n, r.nextLong() % 50_000, (r.nextDouble() - 0.5) * 200_000);
                        }
                        if (seed % 2 == 0) { // coordinator 1 beyond the floor's slack behind every data server
                            sim.faults().clockSkew(NodeId.tc(0), 150_000, 0);
                            sim.faults().clockSkew(NodeId.tc(1), -350_000, 0);
                        }
                    });
            try {
                SimHarness.Stats s = new SimHarness.Stats();
                Cluster c = h.run(seed, s);
                committed += s.committed;
                CheckResult r = SerializabilityChecker.check(History.merge(c.historyLogs()));
                if (!r.serializable()) {
                    failures.add("seed=" + seed + ": " + r.summary(5));
                }
                seen += ran[0].stats().snapshot().entrySet().stream().filter(e -> e.getKey().endsWith("/Seen"))
                        .mapToLong(java.util.Map.Entry::getValue).sum();
                long ts = tsMessages(ran[0]);
                if (ts != 0) {
                    failures.add("seed=" + seed + ": " + ts + " timestamp-service requests under dst");
                }
            } catch (RuntimeException | AssertionError e) {
                failures.add("seed=" + seed + ": " + e);
            }
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " seeds failed: " + failures.subList(0,
                Math.min(10, failures.size())));
        assertTrue(committed > 100L * seeds.length, "too few transactions committed: " + committed);
        System.out.printf("%s under skew: %d committed, %d refusals told to coordinators%n", tree.describe(), committed,
                seen);
        if (tree.describe().contains("tso") && seeds.length > 10) {
            assertTrue(seen > 0, "no refusal told a coordinator a timestamp: the skew exercised nothing");
        }
    }

    /**
     * A TSO leaf under DST runs with no timestamp service at all; the same tree under GTS asks it for every
     * transaction (so the count above is a real check).
     */
    @Test
    void dstSendsNoTimestampServiceMessage() {
        assertEquals(0, serviceMessages(dst(TreeSpec.leaf("tso", "rw1", "rw2", "ro"))));
        assertTrue(serviceMessages(TreeSpec.leaf("tso", "rw1", "rw2", "ro")) > 100);
        assertEquals(0, serviceMessages(dst(TreeSpec.leaf("occ", "rw1", "rw2", "ro"))));
    }

    private static long serviceMessages(TreeSpec spec) {
        SimulatedRuntime[] ran = new SimulatedRuntime[1];
        new SimHarness(new MixWorkload(5), CcTree.build(spec, "count")).onSim((sim, c) -> ran[0] = sim)
                .run(3, new SimHarness.Stats());
        return tsMessages(ran[0]);
    }

    /** Messages of every {@link TsMessages} kind the run sent (as summary.json's tsMessagesPerTxn counts them). */
    static long tsMessages(SimulatedRuntime sim) {
        java.util.Set<String> kinds = new java.util.HashSet<>();
        for (Class<?> c : TsMessages.class.getDeclaredClasses()) {
            kinds.add(c.getSimpleName());
        }
        long n = 0;
        for (var e : sim.stats().snapshot().entrySet()) {
            if (kinds.contains(e.getKey().substring(e.getKey().lastIndexOf('/') + 1))) {
                n += e.getValue();
            }
        }
        return n;
    }
}
