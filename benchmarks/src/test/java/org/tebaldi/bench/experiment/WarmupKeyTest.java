package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;

/**
 * {@code warmup}: a plain duration is a fixed warm-up exactly as before; a mapping {@code {min, max}} is a warm-up
 * that ends when throughput settles; each mistake in it is one clear message at its place and line.
 */
class WarmupKeyTest {
    @TempDir
    Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    private static String bank(String warmup) {
        return ExperimentFixture.BANK.replace("warmup: 1s", "warmup: " + warmup);
    }

    private String error(String yaml, String... sets) {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(yaml, sets));
        ClearError.check(e, yaml);
        return e.getMessage().replace(tmp.toString(), "<dir>");
    }

    @Test
    void aDurationIsAFixedWarmup() {
        WarmupSpec w = fx.load(ExperimentFixture.BANK).warmup();
        assertEquals(WarmupSpec.fixed(1_000_000), w);
        assertFalse(w.settles());
        assertEquals("1s", w.describe());
        assertEquals("1s", ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK)).get("warmup").asText());
        assertEquals(WarmupSpec.fixed(0), fx.load(ExperimentFixture.BANK.replace("warmup: 1s\n", "")).warmup(),
                "no warm-up by default");
    }

    @Test
    void aMappingWarmsUpUntilThroughputSettles() {
        WarmupSpec w = fx.load(bank("{min: 5s, max: 60s}")).warmup();
        assertEquals(new WarmupSpec(5_000_000, 60_000_000), w);
        assertTrue(w.settles());
        assertEquals("5s..60s until throughput settles", w.describe());
        assertEquals(new WarmupSpec(0, 30_000_000), fx.load(bank("{max: 30s}")).warmup(), "min defaults to 0s");
        var json = ResolvedConfig.toJson(fx.load(bank("{min: 5s, max: 60s}"))).get("warmup");
        assertEquals("5s", json.get("min").asText(), json.toString());
        assertEquals("60s", json.get("max").asText(), json.toString());
    }

    @Test
    void overridesSetItWholeOrByKey() {
        assertEquals(new WarmupSpec(2_000_000, 30_000_000),
                fx.load(ExperimentFixture.BANK, "warmup={min: 2s, max: 30s}").warmup());
        assertEquals(new WarmupSpec(5_000_000, 90_000_000),
                fx.load(bank("{min: 5s, max: 60s}"), "warmup.max=90s").warmup());
        assertEquals(WarmupSpec.fixed(3_000_000), fx.load(bank("{min: 5s, max: 60s}"), "warmup=3s").warmup());
        assertEquals("--set warmup.max=90s: warmup.max: 'warmup' is a single value, not a section. Fix: set it as a "
                + "whole: --set warmup=<value>", error(ExperimentFixture.BANK, "warmup.max=90s"));
        assertEquals("--set warmup.mix=3s: warmup.mix: unknown key 'mix' (did you mean 'min'?). Fix: use one of "
                + "min, max", error(bank("{min: 5s, max: 60s}"), "warmup.mix=3s"));
    }

    @Test
    void eachMistakeIsOneClearMessage() {
        assertEquals("<dir>/experiments/x.yaml:6: warmup.max: missing required key 'max'. Fix: add e.g. max: 60s",
                error(bank("{min: 5s}")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup.max: must be above min (5s), found 5s. Fix: raise max, or "
                + "write a fixed warm-up as warmup: 5s", error(bank("{min: 5s, max: 5s}")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup.max: must be above min (10s), found 8s. Fix: raise max, or "
                + "write a fixed warm-up as warmup: 10s", error(bank("{min: 10s, max: 8s}")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup.max: must be at least 10s (throughput has settled when its "
                + "last 10 one-second samples show no trend), found 8s. Fix: write e.g. max: 60s",
                error(bank("{max: 8s}")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup.maz: unknown key 'maz' (did you mean 'max'?). Fix: use one "
                + "of min, max", error(bank("{min: 5s, maz: 60s}")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup.min: must not be negative, found '-1s'. Fix: write e.g. "
                + "min: 5s", error(bank("{min: -1s, max: 60s}")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup.max: must be positive, found '0s'. Fix: write e.g. max: 60s",
                error(bank("{max: 0s}")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup.max: 'later' is not a duration (write e.g. 50us, 5ms, 10s, "
                + "2m). Fix: write e.g. max: 60s", error(bank("{max: later}")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup: expected a duration (a fixed warm-up) or a mapping {min, "
                + "max} (warm up until throughput settles), found true. Fix: write e.g. warmup: 5s, or warmup: "
                + "{min: 5s, max: 60s}", error(bank("true")));
        assertEquals("<dir>/experiments/x.yaml:6: warmup: must not be negative, found -100. Fix: write e.g. "
                + "warmup: 5s", error(bank("-100")), "a plain duration keeps its old messages");
    }

    @Test
    void aSweepListsWholeWarmups() {
        Sweep s = ExperimentLoader.loadSweep(java.util.List.of(fx.write("experiments/x.yaml",
                bank("[2s, {min: 2s, max: 30s}]"))), java.util.List.of(), tmp);
        assertEquals(2, s.points().size());
        assertEquals(WarmupSpec.fixed(2_000_000), s.points().get(0).experiment().warmup());
        assertEquals(new WarmupSpec(2_000_000, 30_000_000), s.points().get(1).experiment().warmup());
        assertEquals(8_000_000, s.plannedMicros(), "a settling warm-up counts with its minimum");
    }
}
