package org.tebaldi.server.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/** The node heaps fit the machine beside the runner: services small, data servers twice a coordinator's share. */
class HeapPlanTest {
    private static final List<NodeId> TPCC = List.of(new NodeId(Role.TS, 0), new NodeId(Role.BATCH, 0), NodeId.ds(0),
            NodeId.ds(1), NodeId.tc(0), NodeId.tc(1));

    @Test
    void dividesWhatTheRunnerLeavesAmongTheNodes() {
        long ram = 24 * 1024;
        long runner = 8 * 1024;
        Map<NodeId, Long> p = HeapPlan.plan(TPCC, ram, runner);
        assertEquals(HeapPlan.SERVICE_MB, p.get(new NodeId(Role.TS, 0)));
        assertEquals(2 * p.get(NodeId.tc(0)), p.get(NodeId.ds(0)), p.toString());
        long heaps = p.values().stream().mapToLong(Long::longValue).sum();
        long total = runner + heaps + HeapPlan.NON_HEAP_MB * (TPCC.size() + 1) + HeapPlan.RESERVE_MB;
        assertTrue(total <= ram, "fits: " + total + " MiB of " + ram + ": " + p);
        assertTrue(total > ram - TPCC.size() * 4, "and uses what is there: " + total + " of " + ram);
        assertEquals(3584, p.get(NodeId.ds(1)), "24 GiB - 8 GiB runner - 1 GiB reserve - 7 x 512 MiB non-heap - 2 x 512 MiB services, in 6 shares: " + p);
    }

    @Test
    void aSmallMachineStillGivesEachNodeTheMinimum() {
        Map<NodeId, Long> p = HeapPlan.plan(TPCC, 4096, 3072);
        p.values().forEach(mb -> assertTrue(mb >= HeapPlan.MIN_MB, p.toString()));
    }

    @Test
    void refusesAnEmptyPlan() {
        assertThrows(IllegalArgumentException.class, () -> HeapPlan.plan(List.of(), 1024, 0));
    }
}
