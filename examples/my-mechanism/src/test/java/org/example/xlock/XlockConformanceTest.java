package org.example.xlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.sim.BankWorkload;
import org.tebaldi.server.sim.MixWorkload;
import org.tebaldi.server.sim.SimSuite;
import org.tebaldi.server.sim.SimWorkload;

/**
 * The framework's conformance kit (the {@code tebaldi-server} test-jar: {@link SimSuite} under the deterministic
 * simulated runtime) over the xlock mechanism: every history serializable with no aborted or intermediate read,
 * every committed audit sees the bank total, every client finishes. {@code -Dtebaldi.seeds=N} runs more seeds,
 * {@code -Dtebaldi.seed=N} one seed (a failing seed reproduces).
 */
class XlockConformanceTest {
    @Test
    void registeredThroughTheServiceLoader() {
        assertTrue(Mechanisms.all().get("xlock") instanceof ExclusiveLocking, Mechanisms.all().keySet()::toString);
    }

    @Test
    void optionsAreChecked() {
        ExclusiveLocking m = new ExclusiveLocking();
        assertEquals(List.of(), m.checkOptions(CcTree.build(TreeSpec.leaf("xlock", "A"), "leaf").root()));
        assertEquals(List.of("option 'lockTimeout' must be positive"), m.checkOptions(CcTree.build(
                TreeSpec.leaf("xlock", "A").option("lockTimeout", "0ms"), "zero").root()));
        List<String> inner = m.checkOptions(CcTree.build(TreeSpec.inner("xlock", TreeSpec.leaf("xlock", "A"),
                TreeSpec.leaf("xlock", "B")), "inner").root());
        assertEquals(1, inner.size(), inner::toString);
        assertTrue(inner.get(0).startsWith("xlock is a leaf only"), inner.get(0));
    }

    static Stream<Arguments> cases() {
        Supplier<SimWorkload> bank = () -> new BankWorkload(6);
        Supplier<SimWorkload> procBank = () -> new BankWorkload(6, true);
        Supplier<SimWorkload> mix = () -> new MixWorkload(5);
        return Stream.of(
                Arguments.of("bank", bank, TreeSpec.leaf("xlock", "transfer", "audit")),
                Arguments.of("bank-procedures", procBank, TreeSpec.leaf("xlock", "transfer", "audit")),
                Arguments.of("mix", mix, TreeSpec.leaf("xlock", "rw1", "rw2", "ro")));
    }

    @ParameterizedTest(name = "{0} under {2}")
    @MethodSource("cases")
    void serializableOverManySeeds(String name, Supplier<SimWorkload> workload, TreeSpec spec) {
        CcTree tree = CcTree.build(spec, name);
        SimSuite.Totals t = SimSuite.run(workload, tree, SimSuite.seeds(60));
        assertTrue(t.failures().isEmpty(), () -> SimSuite.report(t));
        assertTrue(t.committed() > 0);
        System.out.printf("%s under %s: %d seeds, %d committed, %d aborted attempts%n", name, tree.describe(),
                t.runs(), t.committed(), t.aborted());
    }
}
