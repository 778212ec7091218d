package org.tebaldi.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;

/** {@link DelayedLogStore} on a hand-driven clock: deadlines of synced writes, issue order of every callback. */
class DelayedLogStoreTest {
    private long now;
    private final PriorityQueue<long[]> timers = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
    private final List<Runnable> tasks = new ArrayList<>();

    private DelayedLogStore store(long latency) {
        Catalog c = new Catalog();
        c.add("t", 1, 0, false, Catalog.longCol("v"));
        LogStore inner = MemoryLogStore.fresh().open(0, c, Runnable::run);
        return new DelayedLogStore(inner, latency, () -> now, (d, task) -> {
            tasks.add(task);
            timers.add(new long[]{now + d, tasks.size() - 1});
        });
    }

    private void advanceTo(long t) {
        while (!timers.isEmpty() && timers.peek()[0] <= t) {
            long[] x = timers.poll();
            now = x[0];
            tasks.get((int) x[1]).run();
        }
        now = t;
    }

    @Test
    void aSyncedWriteCompletesNoEarlierThanTheLatencyAfterItWasIssued() {
        DelayedLogStore s = store(500);
        List<String> done = new ArrayList<>();
        now = 100;
        s.write(List.of(), true, () -> done.add("a@" + now));
        now = 300;
        s.write(List.of(), true, () -> done.add("b@" + now));
        advanceTo(599);
        assertEquals(List.of(), done);
        advanceTo(1_000);
        assertEquals(List.of("a@600", "b@800"), done);
    }

    @Test
    void anUnsyncedWriteIssuedAfterASyncedOneCompletesAfterIt() {
        DelayedLogStore s = store(2_000);
        List<String> done = new ArrayList<>();
        s.write(List.of(), true, () -> done.add("synced"));
        s.write(List.of(), false, () -> done.add("unsynced"));
        assertEquals(List.of(), done);
        advanceTo(2_000);
        assertEquals(List.of("synced", "unsynced"), done);
        s.write(List.of(), false, () -> done.add("alone"));
        assertEquals("alone", done.get(2), "an unsynced write with nothing before it completes at once");
    }

    @Test
    void aLatencyBelowOneMicrosecondIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> store(0));
        assertThrows(IllegalArgumentException.class, () -> new DurabilityOptions(true, null, 1_000, true,
                MemoryLogStore.fresh(), -1));
    }
}
