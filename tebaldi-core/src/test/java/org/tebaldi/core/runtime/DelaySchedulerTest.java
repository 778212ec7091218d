package org.tebaldi.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The timer heap of the embedded runtime ({@link DelayScheduler}): what runs, runs at or after its deadline and in
 * deadline order (each deadline is bracketed by the clock read before and after scheduling it); a cancelled timer
 * never runs and leaves the heap at once, wherever it sits in it. Nothing is
 * asserted about how soon a task runs after its deadline.
 */
class DelaySchedulerTest {
    private record Ran(int id, long deadline, long at) {
    }

    /** Runs what is due until nothing is pending (deadlines here are at most a few ms away). */
    private static void drain(DelayScheduler s) throws InterruptedException {
        long giveUp = System.nanoTime() + 10_000_000_000L;
        while (s.pending() > 0) {
            assertTrue(System.nanoTime() < giveUp, "timers still pending after 10 s: " + s.pending());
            if (s.runDue() == 0) {
                Thread.sleep(0, 100_000);
            }
        }
        s.runDue();
    }

    @Test
    void randomTimersWithRandomCancellationsRunExactlyTheLiveOnesInDeadlineOrder() throws Exception {
        for (int round = 0; round < 20; round++) {
            Random rnd = new Random(round);
            DelayScheduler s = new DelayScheduler();
            List<Ran> ran = new ArrayList<>();
            List<Cancellable> handles = new ArrayList<>();
            long[] deadlines = new long[500];
            long[] hi = new long[deadlines.length]; // the deadline lies in [deadlines[i], hi[i]]
            for (int i = 0; i < deadlines.length; i++) {
                int id = i;
                long delay = rnd.nextInt(3_000_000); // up to 3 ms
                deadlines[i] = System.nanoTime() + delay;
                handles.add(s.schedule(delay, () -> ran.add(new Ran(id, deadlines[id], System.nanoTime()))));
                hi[i] = System.nanoTime() + delay;
            }
            Set<Integer> cancelled = new HashSet<>();
            for (int i = 0; i < deadlines.length; i++) {
                if (rnd.nextInt(3) > 0) { // two thirds, from every part of the heap
                    handles.get(i).cancel();
                    handles.get(i).cancel(); // idempotent
                    cancelled.add(i);
                }
            }
            assertEquals(deadlines.length - cancelled.size(), s.pending(), "cancelled timers leave the heap at once");
            drain(s);
            Set<Integer> ids = new HashSet<>();
            for (Ran r : ran) {
                ids.add(r.id());
                assertTrue(r.at() >= r.deadline(), "ran before its deadline: " + r);
            }
            Set<Integer> live = new HashSet<>();
            for (int i = 0; i < deadlines.length; i++) {
                if (!cancelled.contains(i)) {
                    live.add(i);
                }
            }
            assertEquals(live, ids, "round " + round);
            for (int i = 1; i < ran.size(); i++) {
                Ran a = ran.get(i - 1);
                Ran b = ran.get(i);
                assertTrue(hi[b.id()] >= a.deadline(), "round " + round + ": timer " + b.id()
                        + " surely fell due before " + a.id() + " but ran after it");
            }
            assertEquals(live.size(), ran.size(), "each live timer ran once");
        }
    }

    @Test
    void tasksDueTogetherRunInDeadlineOrder() throws Exception {
        DelayScheduler s = new DelayScheduler();
        List<Integer> order = new ArrayList<>();
        Random rnd = new Random(7);
        // each deadline is bracketed by the clock read before and after scheduling: [lo, hi]
        long[] lo = new long[200];
        long[] hi = new long[200];
        for (int i = 0; i < lo.length; i++) {
            int id = i;
            long delay = 2_000_000 + rnd.nextInt(1_000_000);
            lo[i] = System.nanoTime() + delay;
            s.schedule(delay, () -> order.add(id));
            hi[i] = System.nanoTime() + delay;
        }
        long last = java.util.Arrays.stream(hi).max().getAsLong();
        while (System.nanoTime() < last + 1_000_000) {
            Thread.sleep(1); // until every deadline has passed: one runDue then takes them all
        }
        assertEquals(lo.length, s.runDue());
        assertEquals(0, s.pending());
        for (int i = 1; i < order.size(); i++) {
            int a = order.get(i - 1);
            int b = order.get(i);
            assertTrue(hi[b] >= lo[a], "timer " + b + " surely fell due before " + a + " but ran after it");
        }
    }

    @Test
    void theHeadDeadlineFollowsCancellations() {
        DelayScheduler s = new DelayScheduler();
        Cancellable soon = s.schedule(1_000_000_000L, () -> { });
        s.schedule(60_000_000_000L, () -> { });
        assertTrue(s.untilDue() <= 1_000_000_000L);
        soon.cancel();
        assertTrue(s.untilDue() > 50_000_000_000L, "the later timer is now the head: " + s.untilDue());
        assertEquals(1, s.pending());
        assertEquals(0, s.runDue(), "nothing is due");
    }

    @Test
    void aTaskMayCancelAnotherTimerWhileTimersRun() throws Exception {
        DelayScheduler s = new DelayScheduler();
        List<String> ran = new ArrayList<>();
        Cancellable later = s.schedule(2_000_000, () -> ran.add("later"));
        Cancellable[] other = new Cancellable[1];
        s.schedule(0, () -> {
            ran.add("first");
            later.cancel();
            other[0].cancel();
        });
        other[0] = s.schedule(0, () -> ran.add("other"));
        drain(s);
        assertEquals(List.of("first"), ran);
    }
}
