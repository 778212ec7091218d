package org.tebaldi.bench.burn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The short burn in {@code mvn verify}: seeds 1–{@value #SEEDS} (or {@code -Dtebaldi.burn.seeds=N}), each a random
 * scenario with faults, every check of {@link BurnRun}; every seed passes and every fault kind is exercised. A failing
 * seed is printed with its scenario; replay it with {@code scripts/tebaldi burn --seed S}.
 */
class BurnSeedsTest {
    static final int SEEDS = 400;
    static final int STREAMED_SEEDS = 100;

    @Test
    void randomScenariosWithFaultsPassEveryCheck() {
        int n = Integer.getInteger("tebaldi.burn.seeds", SEEDS);
        List<String> failures = new ArrayList<>();
        Map<FaultKind, Integer> kinds = new EnumMap<>(FaultKind.class);
        long committed = 0;
        long t0 = System.nanoTime();
        for (long seed = 1; seed <= n; seed++) {
            BurnResult r = new BurnRun(ScenarioDraw.draw(seed)).run();
            r.faults().forEach((k, c) -> kinds.merge(k, c, Integer::sum));
            committed += r.committed();
            if (!r.passed()) {
                failures.add(r.describe() + "\n" + ScenarioFiles.toJson(r.scenario()));
            }
        }
        System.out.printf("burn: %d seeds in %d ms, %d committed, faults %s, %d failed%n", n,
                (System.nanoTime() - t0) / 1_000_000, committed, kinds, failures.size());
        assertTrue(failures.isEmpty(), failures.size() + " seeds failed:\n" + String.join("\n", failures));
        assertTrue(kinds.keySet().containsAll(List.of(FaultKind.values())), "every fault kind injected: " + kinds);
    }

    /**
     * Seeds 1–{@value #STREAMED_SEEDS} (or {@code -Dtebaldi.burn.streamedSeeds=N}) with the streamed history check
     * beside each run ({@code burn --streamed}; skipped where a crash or restart rewrites the history): once the
     * cluster is quiet it holds no transaction without an outcome, and its verdict is the batch check's.
     */
    @Test
    void randomScenariosPassTheStreamedCheck() {
        int n = Integer.getInteger("tebaldi.burn.streamedSeeds", STREAMED_SEEDS);
        List<String> failures = new ArrayList<>();
        for (long seed = 1; seed <= n; seed++) {
            BurnResult r = new BurnRun(ScenarioDraw.draw(seed)).streamed().run();
            if (!r.passed()) {
                failures.add(r.describe());
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " seeds failed:\n" + String.join("\n", failures));
    }
}
