package org.tebaldi.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.MessageStats;

/**
 * The driver against a scripted endpoint: retries reuse the request and its wait-die priority after a back-off,
 * non-retryable aborts are errors and are not retried, abort rates count attempts, warm-up is excluded from the
 * measurement exactly, the timeline covers the whole run, one tick per second, message counters reset after
 * warm-up.
 */
class ClosedLoopDriverTest {
    private static DriverResult run(ScriptedWorkload w, ScriptedClient c, long warmupMs, long durationMs,
                                    List<ProgressTick> ticks, MessageStats stats) throws InterruptedException {
        DriverConfig cfg = new DriverConfig(4, warmupMs * 1000, durationMs * 1000, 1000, 4000, 1, 5000);
        return new ClosedLoopDriver(cfg, w, i -> c, stats, ticks::add, () -> false).run();
    }

    @Test
    void retriesReuseRequestAndPriorityAfterBackoff() throws Exception {
        ScriptedWorkload w = new ScriptedWorkload("flaky");
        try (ScriptedClient c = new ScriptedClient(100, 2)) {
            DriverResult r = run(w, c, 0, 600, new ArrayList<>(), null);
            Map<Object, List<ScriptedClient.Call>> byRequest = c.calls.stream()
                    .collect(Collectors.groupingBy(ScriptedClient.Call::inputs));
            int complete = 0;
            for (List<ScriptedClient.Call> attempts : byRequest.values()) {
                assertTrue(attempts.size() <= 3, "at most 2 aborts then a commit");
                assertEquals(1, attempts.stream().map(ScriptedClient.Call::priority).distinct().count(),
                        "same wait-die priority on every retry");
                for (int i = 1; i < attempts.size(); i++) {
                    long gapMicros = (attempts.get(i).nanos() - attempts.get(i - 1).nanos()) / 1000;
                    assertTrue(gapMicros >= 500 * (1L << (i - 1)), "back-off before retry " + i + ": " + gapMicros);
                }
                complete += attempts.size() == 3 ? 1 : 0;
            }
            assertTrue(complete > 20, "requests committed after two retries: " + complete);
            TypeStats s = r.types().get("flaky");
            assertTrue(s.committed() > 20);
            assertEquals(0, s.errors());
            assertEquals(2.0 / 3, s.abortRate(), 0.05, "two aborted attempts per commit");
            assertEquals((double) s.aborted() / (s.aborted() + s.committed()), s.abortRate(), 1e-12);
            assertEquals(0, r.inFlightAtEnd());
            assertFalse(r.stoppedEarly());
        }
    }

    @Test
    void nonRetryableAbortsAreErrorsAndNotRetried() throws Exception {
        ScriptedWorkload w = new ScriptedWorkload("ok", "broken");
        try (ScriptedClient c = new ScriptedClient(100, 0)) {
            DriverResult r = run(w, c, 0, 400, new ArrayList<>(), null);
            Map<Object, Long> attempts = c.calls.stream().filter(x -> x.type().equals("broken"))
                    .collect(Collectors.groupingBy(ScriptedClient.Call::inputs, Collectors.counting()));
            assertTrue(attempts.values().stream().allMatch(n -> n == 1), "errors are not retried");
            TypeStats broken = r.types().get("broken");
            assertTrue(broken.errors() > 10, "errors counted: " + broken.errors());
            assertEquals(0, broken.committed());
            assertEquals(0, broken.aborted());
            assertEquals(0, broken.abortRate());
            assertTrue(r.types().get("ok").committed() > 10);
            assertEquals(r.types().get("ok").committed(), r.total().committed());
            assertTrue(r.errorSamples().get(0).startsWith("broken: "), r.errorSamples().toString());
        }
    }

    @Test
    void warmupIsExcludedAndTheTimelineCoversTheWholeRun() throws Exception {
        ScriptedWorkload w = new ScriptedWorkload("ok");
        List<ProgressTick> ticks = new ArrayList<>();
        MessageStats stats = new MessageStats();
        stats.record("counted during warm-up");
        try (ScriptedClient c = new ScriptedClient(200, 0)) {
            DriverResult r = run(w, c, 1000, 1000, ticks, stats);
            assertEquals(20, r.timeline().size(), "100 ms buckets over 2 s");
            assertEquals(100, r.timeline().get(0).tMs());
            assertEquals(2000, r.timeline().get(19).tMs());
            double warm = r.timeline().subList(0, 10).stream().mapToDouble(TimelinePoint::throughput).sum() / 10;
            double measured = r.timeline().subList(10, 20).stream().mapToDouble(TimelinePoint::throughput).sum() / 10;
            assertTrue(warm > 0, "commits during warm-up");
            assertEquals(Math.round(measured), r.total().committed(), "exactly the commits of the measured buckets");
            assertEquals(1_000_000, r.measuredMicros());
            assertEquals(r.total().committed(), r.throughput(), 1e-9, "1 s window");
            assertEquals(2, ticks.size());
            assertEquals(new ProgressTick(1, 2, "warmup", ticks.get(0).txnPerSec(), 0), ticks.get(0));
            assertEquals("measure", ticks.get(1).phase());
            assertTrue(ticks.get(1).txnPerSec() > 0);
            assertTrue(r.messages().values().stream().allMatch(n -> n == 0),
                    "counters reset after warm-up: " + r.messages());
            assertTrue(r.total().latencyMicros().getTotalCount() == r.total().committed());
            assertTrue(r.total().percentileMs(50) >= 0.2, "latency includes the 200 us call");
        }
    }

    @Test
    void aPartialLastSecondGetsItsOwnTick() throws Exception {
        List<ProgressTick> ticks = new ArrayList<>();
        try (ScriptedClient c = new ScriptedClient(100, 0)) {
            run(new ScriptedWorkload("ok"), c, 0, 1300, ticks, null);
        }
        assertEquals(List.of(1L, 2L), ticks.stream().map(ProgressTick::second).toList());
        assertTrue(ticks.stream().allMatch(t -> t.totalSeconds() == 2 && t.phase().equals("measure")));
    }

    @Test
    void backoffGrowsExponentiallyWithJitterUpToTheCap() {
        Backoff b = new Backoff(1000, 8000, 42);
        for (int i = 0; i < 200; i++) {
            long d1 = b.delayMicros(1);
            long d3 = b.delayMicros(3);
            long d9 = b.delayMicros(9);
            assertTrue(d1 >= 500 && d1 <= 1000, "first: " + d1);
            assertTrue(d3 >= 2000 && d3 <= 4000, "third: " + d3);
            assertTrue(d9 >= 4000 && d9 <= 8000, "capped: " + d9);
        }
        assertEquals(0, new Backoff(0, 0, 1).delayMicros(5));
        assertTrue(new Backoff(1000, Long.MAX_VALUE, 1).delayMicros(100) > 0, "no overflow");
    }
}
