package org.tebaldi.server.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/**
 * The node heaps fit the machine beside the runner: services small, data servers twice a coordinator's share; a
 * plan that cannot fit fails with the numbers and the fix.
 */
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
    void plansWithWhatOtherProgramsLeave() {
        assertEquals(24 * 1024, HeapPlan.usableRamMb(24 * 1024, -1, 300), "unknown: the whole RAM");
        assertEquals(10_300, HeapPlan.usableRamMb(24 * 1024, 10_000, 300), "available + the runner's own heap");
        assertEquals(24 * 1024, HeapPlan.usableRamMb(24 * 1024, 24_000, 1000), "never more than the RAM");
        Map<NodeId, Long> busy = HeapPlan.plan(TPCC, 16 * 1024, 24 * 1024, 4096);
        long total = 4096 + busy.values().stream().mapToLong(Long::longValue).sum()
                + HeapPlan.NON_HEAP_MB * (TPCC.size() + 1) + HeapPlan.RESERVE_MB;
        assertTrue(total <= 16 * 1024, "fits in the 16 GiB usable: " + total + " " + busy);
    }

    @Test
    void tooManyNodesForTheMemoryIsOneClearError() {
        List<NodeId> many = new java.util.ArrayList<>(TPCC);
        for (int i = 2; i < 12; i++) {
            many.add(NodeId.ds(i));
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HeapPlan.plan(many, 16 * 1024, 16 * 1024, 8 * 1024));
        String m = e.getMessage();
        assertTrue(m.contains("cannot fit its 16 node JVMs"), m);
        assertTrue(m.contains("16,384 MiB usable"), m);
        assertTrue(m.contains("the runner's heap 8,192 MiB"), m);
        assertTrue(m.contains("12 data server(s) x 1024 MiB"), m);
        assertTrue(m.contains("fewer nodes") && m.contains("TEBALDI_JAVA_OPTS=-Xmx2g"), m);
        long need = 1024 + 8192 + 17 * 512 + 2 * 512 + 12 * 1024 + 2 * 512;
        assertTrue(m.contains(String.format(java.util.Locale.ROOT, "at least %,d MiB needed", need)), m);
    }

    @Test
    void aRunnerHeapTooBigIsOneClearError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HeapPlan.plan(TPCC, 4096, 4096, 3072));
        assertTrue(e.getMessage().contains("the runner's heap 3,072 MiB"), e.getMessage());
    }

    @Test
    void aFixedNodeHeapIsCheckedAgainstTheMemory() {
        HeapPlan.checkFixed(TPCC, 1024, 24 * 1024, 24 * 1024, 8 * 1024);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HeapPlan.checkFixed(TPCC, 4096, 24 * 1024, 24 * 1024, 8 * 1024));
        assertTrue(e.getMessage().contains("6 nodes x -Xmx 4,096 MiB (TEBALDI_NODE_JAVA_OPTS)"), e.getMessage());
        assertTrue(e.getMessage().contains("37,376 MiB needed"), e.getMessage());
    }

    @Test
    void readsTheLastXmxOfACommand() {
        assertEquals(-1, HeapPlan.xmxMb(List.of("java", "-jar", "x.jar")));
        assertEquals(2048, HeapPlan.xmxMb(List.of("java", "-Xmx512m", "-Xmx2g", "-jar", "x.jar")));
        assertEquals(1500, HeapPlan.xmxMb(List.of("java", "-Xmx1500M")));
        assertEquals(1, HeapPlan.xmxMb(List.of("java", "-Xmx1048576")));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HeapPlan.xmxMb(List.of("java", "-Xmx2q")));
        assertTrue(e.getMessage().contains("-Xmx2q") && e.getMessage().contains("-Xmx2g"), e.getMessage());
    }

    @Test
    void refusesAnEmptyPlan() {
        assertThrows(IllegalArgumentException.class, () -> HeapPlan.plan(List.of(), 1024, 0));
    }
}
