package org.tebaldi.cc.rp.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.tebaldi.core.model.Catalog.longCol;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.model.Catalog;

/** Table graphs from declared access orders; SCC merging, topological order, tie-breaks, outer plans. */
class StepPlanTest {
    private final Catalog cat = catalog();
    private final Database db = new Database(cat);

    private static Catalog catalog() {
        Catalog c = new Catalog();
        for (String t : List.of("a", "b", "c", "d", "e")) {
            c.add(t, 1, 0, false, longCol("v"));
        }
        c.add("r", 1, -1, true, longCol("v"));
        return c;
    }

    private List<TxnType> types(List<List<String>> orders) {
        Database d = new Database(cat);
        int i = 0;
        for (List<String> o : orders) {
            d.interactive("t" + i++, false, o);
        }
        return d.types();
    }

    private StepPlan plan(List<List<String>> orders, StepPlan outer) {
        return StepPlan.of(TableGraph.of(types(orders), cat), outer);
    }

    @Test
    void declaredOrdersAreChainsOfEdgesWithoutReplicatedTables() {
        TableGraph g = TableGraph.of(types(List.of(List.of("c", "r", "a", "b"), List.of("d"))), cat);
        assertEquals(List.of("c", "a", "b", "d"), g.tables());
        assertEquals("c -> a; a -> b; b; d", g.describe());
        assertEquals(Set.of("a"), g.successors("c"));
        assertEquals(Set.of(), g.successors("r"));
    }

    @Test
    void anInteractiveTypeWithoutADeclaredOrderIsRejected() {
        TxnType t = db.interactive("browse", true, "k");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TableGraph.of(List.of(t), cat));
        assertEquals("runtime pipelining needs the table access order of interactive type 'browse'; declare it "
                + "with Database.interactive(name, readOnly, accessOrder, params...)", e.getMessage());
    }

    @Test
    void tablesOnACycleShareAStepAndStepsFollowTheEdges() {
        StepPlan p = plan(List.of(List.of("e", "a", "b", "c"), List.of("c", "b"), List.of("d", "e")), null);
        assertEquals("1:{d} 2:{e} 3:{a} 4:{b, c}", p.describe());
        assertEquals(4, p.size());
        assertEquals(4, p.stepOf("c"));
        assertEquals(-1, p.stepOf("r"));
        assertEquals(-1, p.stepOf("unknown"));
        assertEquals(List.of(Set.of("d"), Set.of("e"), Set.of("a"), Set.of("b", "c")), p.steps());
    }

    @Test
    void independentTablesGoInOrderOfFirstAppearance() {
        assertEquals("1:{c} 2:{a} 3:{b} 4:{e}", plan(List.of(List.of("c"), List.of("a", "b"), List.of("e")),
                null).describe());
    }

    @Test
    void anOuterPlanDecidesTiesBeforeFirstAppearance() {
        StepPlan outer = plan(List.of(List.of("a", "b", "c", "d", "e")), null);
        assertEquals("1:{e} 2:{c} 3:{b}", plan(List.of(List.of("e"), List.of("c"), List.of("b")), null).describe());
        assertEquals("1:{b} 2:{c} 3:{e}", plan(List.of(List.of("e"), List.of("c"), List.of("b")), outer).describe());
        StepPlan merged = plan(List.of(List.of("a", "d"), List.of("d", "a"), List.of("b"), List.of("c")), null);
        assertEquals("1:{a, d} 2:{b} 3:{c}", merged.describe());
        assertEquals("1:{d} 2:{b} 3:{c}", plan(List.of(List.of("d"), List.of("c"), List.of("b")), merged)
                .describe());
    }

    @Test
    void aGraphAgainstTheOuterOrderIsRejected() {
        StepPlan outer = plan(List.of(List.of("a", "b")), null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> plan(List.of(List.of("b", "a")), outer));
        assertEquals("the group's table graph orders b before a (steps 1, 2 of 1:{b} 2:{a}) but the outer plan puts"
                + " a in step 1 before b in step 2 (1:{a} 2:{b}); a nested group's table graph must be a subgraph "
                + "of its ancestor's", e.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> plan(List.of(List.of("a", "c")), outer));
        assertEquals("table c is in no step of the outer plan 1:{a} 2:{b}; a nested runtime-pipelining group must "
                + "access only tables of its ancestor's group", missing.getMessage());
    }
}
