package org.tebaldi.core.runtime.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;

/** A cost table's sections by tree ({@link TreeCosts}, {@link CostTable#forRun}): lookup, fallback, file form. */
class TreeCostsTest {
    private static final String TWO_PL = "2pl{deadlock=wait-die}[delivery,new_order,payment]";
    private static final String TWO_PL_SHAPE = "2pl[delivery,new_order,payment]";
    private static final String THREE = "ssi{2pl{rp[delivery],rp[new_order,payment]},none[order_status]}";

    @TempDir
    Path tmp;

    private static CostTable table() {
        CostTable t = new CostTable("t", Map.of(), 1.2, Map.of("tpcc", 1.4), 2, 10, Map.of("tpcc", 15.0), 64,
                Map.of(), Map.of("ds ExecRequest", new HandlerCost(10, 0, 0, 500),
                "tc ExecReply", new HandlerCost(3, 0, 0, 500)),
                Map.of("tpcc", Map.of("ds ExecRequest", new HandlerCost(20, 0, 0, 500))), null);
        return t.withTrees(List.of(
                new TreeCosts("tpcc", TWO_PL, TWO_PL_SHAPE, List.of("tpcc-2pl@50", "tpcc-2pl@200"), 1.3, 12,
                        Map.of("ds ExecRequest", new HandlerCost(17, 0.5, 0, 400))),
                new TreeCosts("tpcc", THREE, THREE, List.of("tpcc-tebaldi-3layer@50"), 1.6, 18,
                        Map.of("ds ExecRequest", new HandlerCost(24, 0, 0, 300)))));
    }

    @Test
    void aRunOfACalibratedTreeUsesThatTreesCostsOverheadAndLateness() {
        CostTable run = table().forRun("tpcc", THREE, THREE);
        assertEquals(24, run.cost("ds ExecRequest").baseMicros(), 1e-9);
        assertEquals(3, run.cost("tc ExecReply").baseMicros(), 1e-9, "a key the section lacks: the pooled cost");
        assertEquals(1.6, run.overhead(), 1e-9);
        assertEquals(18, run.lateMicros(), 1e-9);
        assertEquals("t/tpcc/tpcc-tebaldi-3layer", run.name());
        assertEquals(17, table().forRun("tpcc", TWO_PL, TWO_PL_SHAPE).cost("ds ExecRequest").baseMicros(), 1e-9);
    }

    @Test
    void aTreeDifferingOnlyInOptionsUsesTheSectionOfItsShape() {
        String timeouts = "2pl{deadlock=timeout, lockTimeout=100ms}[delivery,new_order,payment]";
        CostTable run = table().forRun("tpcc", timeouts, TWO_PL_SHAPE);
        assertEquals(17, run.cost("ds ExecRequest").baseMicros(), 1e-9);
        assertEquals(1.3, run.overhead(), 1e-9);
    }

    @Test
    void aTreeNeverCalibratedOrAnAmbiguousShapeUsesTheWorkloadsCosts() {
        CostTable run = table().forRun("tpcc", "ssi[delivery,new_order,payment]", "ssi[delivery,new_order,payment]");
        assertEquals(20, run.cost("ds ExecRequest").baseMicros(), 1e-9);
        assertEquals(1.4, run.overhead(), 1e-9);
        assertEquals(15, run.lateMicros(), 1e-9);
        CostTable two = table().withTrees(List.of(
                new TreeCosts("tpcc", TWO_PL, TWO_PL_SHAPE, List.of("a@50"), 1.3, 12, Map.of()),
                new TreeCosts("tpcc", "2pl{deadlock=no-wait}[delivery,new_order,payment]", TWO_PL_SHAPE,
                        List.of("b@50"), 1.5, 12, Map.of())));
        assertTrue(two.treeSection("tpcc", "2pl{deadlock=timeout}[delivery,new_order,payment]", TWO_PL_SHAPE)
                .isEmpty(), "two sections of that shape: neither is taken");
        assertEquals(1.5, two.forRun("tpcc", "2pl{deadlock=no-wait}[delivery,new_order,payment]", TWO_PL_SHAPE)
                .overhead(), 1e-9, "an exact match wins over the shape");
        assertEquals(1.2, table().forRun("seats", THREE, THREE).overhead(), 1e-9, "another workload's section: no");
    }

    @Test
    void theSectionsSurviveTheFileRoundTrip() throws Exception {
        Path f = tmp.resolve("t.yaml");
        table().write(f);
        CostTable back = CostTable.read(f);
        assertEquals(table().trees(), back.trees());
        assertEquals(24, back.forRun("tpcc", THREE, THREE).cost("ds ExecRequest").baseMicros(), 1e-9);
        CostTable none = table().withTrees(List.of());
        none.write(f);
        assertTrue(!Files.readString(f).contains("trees:"), "a table without sections writes none");
        assertTrue(CostTable.read(f).trees().isEmpty());
    }

    @Test
    void aBadSectionNamesFileAndPlace() throws Exception {
        assertTrue(badSection("{workload: tpcc, tree: \"2pl[a]\", shape: \"2pl[a]\", experiments: [x@50], overhead: 0.5,"
                + " lateMicros: 1}").endsWith(": trees[0].overhead: expected an overhead factor of at least 1, found 0.5."
                + " Fix: run scripts/tebaldi calibrate again"), "an overhead below 1");
        assertTrue(badSection("{workload: tpcc, shape: \"2pl[a]\", experiments: [x@50], overhead: 1.5, lateMicros: 1}")
                .contains(": trees[0].tree: expected a string"), "no tree");
    }

    /** The message of reading a table whose one section is {@code section}; it starts with the file's name. */
    private String badSection(String section) throws Exception {
        Path f = tmp.resolve("bad.yaml");
        Files.writeString(f, "name: bad\noverhead: 1.5\nhandlers: {tc ExecReply: {baseMicros: 2}}\ntrees:\n- "
                + section + "\n");
        String m = assertThrows(ConfigException.class, () -> CostTable.read(f)).getMessage();
        assertTrue(m.startsWith(f + ": trees[0]."), m);
        return m;
    }
}
