package org.tebaldi.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.tebaldi.core.client.CommitInfo;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.txn.Inputs;

/**
 * A warm-up written as {@code {min, max}} ({@link SettleWatch}) against scripted throughput: it ends once throughput
 * stops rising (never during the rise; the measured window then starts on a timeline boundary and lasts the
 * duration exactly), at the max when throughput keeps rising, never before the min; the progress line has no total
 * until warm-up ended. Real time (the closed-loop driver) and virtual time (the simulated driver). The scripted
 * rises are steep and long enough that a loaded machine's jitter cannot hide them; nothing is asserted about speed.
 * The tests run side by side: each spends its 13-25 s waiting on its own scripted clients.
 */
@Execution(ExecutionMode.CONCURRENT)
class SettleWarmupTest {
    private static final int CLIENTS = 20;

    private static DriverConfig config(long minMs, long maxMs, long durationMs) {
        return new DriverConfig(CLIENTS, minMs * 1000, maxMs * 1000, durationMs * 1000, 1000, 4000, 1, 5000);
    }

    private static DriverResult real(DoubleUnaryOperator rate, long maxMs, long durationMs, List<ProgressTick> ticks)
            throws InterruptedException {
        return real(rate, maxMs, durationMs, ticks, new JitActivity(null)); // the test JVM's own JIT plays no part
    }

    private static DriverResult real(DoubleUnaryOperator rate, long maxMs, long durationMs, List<ProgressTick> ticks,
                                     JitActivity jit) throws InterruptedException {
        try (RampingClient c = new RampingClient(CLIENTS, rate)) {
            return new ClosedLoopDriver(config(0, maxMs, durationMs), new ScriptedWorkload("ok"), i -> c, null,
                    ticks::add, () -> false).jit(jit).run();
        }
    }

    /**
     * Ticks have no total until the one in which warm-up ended (within its last second), then the run's length; the
     * phase is warm-up up to the end of warm-up.
     */
    private static void checkTicks(List<ProgressTick> ticks, DriverResult r, long durationMs) {
        long warmupMs = r.window().warmupMs();
        long total = (warmupMs + durationMs + 999) / 1000;
        int known = 0;
        while (known < ticks.size() && ticks.get(known).totalSeconds() == 0) {
            known++;
        }
        assertTrue(known < ticks.size(), "the total is known once warm-up ended: " + ticks);
        long at = ticks.get(known).second() * 1000;
        assertTrue(at <= warmupMs && at > warmupMs - 2000, "known from second " + at / 1000 + ", warm-up "
                + warmupMs + " ms");
        for (ProgressTick t : ticks.subList(known, ticks.size())) {
            assertEquals(total, t.totalSeconds(), t.toString());
        }
        for (ProgressTick t : ticks) {
            assertEquals(t.second() * 1000 <= warmupMs ? "warmup" : "measure", t.phase(), t.toString());
        }
        assertEquals(total, ticks.get(ticks.size() - 1).second());
    }

    /** The measured commits are exactly those of the window's timeline buckets. */
    private static void checkWindow(DriverResult r, long durationMs) {
        long warmupMs = r.window().warmupMs();
        assertEquals(0, warmupMs % Timeline.BUCKET_MS, "the window starts on a timeline boundary: " + warmupMs);
        assertEquals(durationMs * 1000, r.measuredMicros());
        double inWindow = r.timeline().stream().filter(p -> p.tMs() > warmupMs && p.tMs() <= warmupMs + durationMs)
                .mapToDouble(p -> p.throughput() * Timeline.BUCKET_MS / 1000).sum();
        assertEquals(Math.round(inWindow), r.total().committed());
        assertEquals((warmupMs + durationMs) / Timeline.BUCKET_MS, r.timeline().size());
    }

    @Test
    void warmupEndsOnceThroughputStopsRising() throws Exception {
        List<ProgressTick> ticks = new ArrayList<>();
        DriverResult r = real(RampingClient.ramp(100, 1000, 12), 40_000, 2000, ticks);
        WindowCheck w = r.window();
        assertTrue(w.settled(), "settled before the max: " + w);
        assertTrue(w.warmupMs() >= 12_000, "not during the 12 s rise: " + w);
        assertTrue(w.warmupMs() < 40_000, w.toString());
        checkWindow(r, 2000);
        checkTicks(ticks, r, 2000);
    }

    /**
     * Flat throughput while a (scripted) JIT compiler spends half a core compiling for the first 12 s: warm-up waits
     * until the compiler has been quiet for {@value JitActivity#QUIET_SECONDS} s, although throughput showed no
     * trend long before.
     */
    @Test
    void warmupWaitsForTheJitCompiler() throws Exception {
        long start = System.nanoTime();
        JitActivity jit = new JitActivity(() -> 500 * Math.min(12, (System.nanoTime() - start) / 1_000_000_000L));
        List<ProgressTick> ticks = new ArrayList<>();
        DriverResult r = real(t -> 1000, 40_000, 1000, ticks, jit);
        WindowCheck w = r.window();
        assertTrue(w.settled(), "settled before the max: " + w);
        assertTrue(w.warmupMs() >= 12_000 + (JitActivity.QUIET_SECONDS - 1) * 1000L,
                "not before the compiler was quiet for 5 s: " + w);
        assertTrue(w.warmupMs() < 40_000, w.toString());
        checkWindow(r, 1000);
        checkTicks(ticks, r, 1000);
    }

    @Test
    void warmupEndsAtTheMaxWhenThroughputKeepsRising() throws Exception {
        List<ProgressTick> ticks = new ArrayList<>();
        DriverResult r = real(RampingClient.ramp(100, 2000, 100), 12_000, 1000, ticks);
        WindowCheck w = r.window();
        assertFalse(w.settled(), w.toString());
        assertEquals(12_000, w.warmupMs());
        checkWindow(r, 1000);
        checkTicks(ticks, r, 1000);
    }

    /** A client whose calls commit after {@code CLIENTS / rate(t)} virtual seconds. */
    private static TxnClient virtual(SimulatedRuntime sim, DoubleUnaryOperator rate) {
        return new TxnClient() {
            private long ids;

            @Override
            public CompletableFuture<Transaction> begin(String type, Inputs inputs, long priority) {
                return CompletableFuture.failedFuture(new UnsupportedOperationException("procedures only"));
            }

            @Override
            public CompletableFuture<CommitInfo> call(String type, Inputs inputs, long priority) {
                CompletableFuture<CommitInfo> f = new CompletableFuture<>();
                long delay = (long) (CLIENTS * 1e6 / rate.applyAsDouble(sim.nowMicros() / 1e6));
                sim.at(sim.nowMicros() + delay, () -> f.complete(new CommitInfo(++ids, Map.of(),
                        CompletableFuture.completedFuture(null))));
                return f;
            }
        };
    }

    private static DriverResult simulated(DoubleUnaryOperator rate, DriverConfig cfg, List<ProgressTick> ticks) {
        SimulatedRuntime sim = new SimulatedRuntime(7, new SimulatedRuntime.Model(0, 0, 0, 0));
        return new SimulatedDriver(cfg, new ScriptedWorkload("ok"), i -> virtual(sim, rate), sim, ticks::add).run();
    }

    @Test
    void inVirtualTimeToo() {
        List<ProgressTick> ticks = new ArrayList<>();
        DriverResult r = simulated(RampingClient.ramp(100, 1000, 15), config(0, 60_000, 3000), ticks);
        assertTrue(r.window().settled(), r.window().toString());
        assertTrue(r.window().warmupMs() >= 15_000, r.window().toString());
        checkWindow(r, 3000);
        assertEquals(r.window(), simulated(RampingClient.ramp(100, 1000, 15), config(0, 60_000, 3000),
                new ArrayList<>()).window(), "virtual time: the same run twice");
        assertTrue(ticks.stream().allMatch(t -> t.wallMillis() >= 0));

        DriverResult rising = simulated(RampingClient.ramp(100, 2000, 100), config(0, 20_000, 1000),
                new ArrayList<>());
        assertFalse(rising.window().settled());
        assertEquals(20_000, rising.window().warmupMs());
        checkWindow(rising, 1000);

        DriverResult flat = simulated(t -> 500, config(15_000, 60_000, 1000), new ArrayList<>());
        assertTrue(flat.window().settled(), flat.window().toString());
        assertTrue(flat.window().warmupMs() >= 15_000, "never before the min: " + flat.window());
    }
}
