package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;

/**
 * {@code cluster.tls} (docs/cluster.md, "Security"): off by default, a boolean, for processes mode only, recorded in
 * the resolved configuration; a bad value is one clear message naming the file, the place and the fix.
 */
class TlsKeyTest {
    @TempDir
    java.nio.file.Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    @Test
    void offByDefaultAndOnWhenAsked() {
        assertFalse(fx.load(ExperimentFixture.BANK).cluster().tls());
        assertFalse(fx.load(ExperimentFixture.BANK, "cluster.mode=processes").cluster().tls());
        assertTrue(fx.load(ExperimentFixture.BANK, "cluster.mode=processes", "cluster.tls=true").cluster().tls());
        assertFalse(fx.load(ExperimentFixture.BANK, "cluster.tls=false").cluster().tls(), "off is fine anywhere");
        var processes = ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK, "cluster.mode=processes",
                "cluster.tls=true")).get("cluster");
        assertTrue(processes.get("tls").asBoolean(), processes.toString());
        assertFalse(ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK)).get("cluster").has("tls"));
    }

    @Test
    void aBadValueOrAClusterInOneJvmIsOneClearMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK,
                "cluster.mode=processes", "cluster.tls=mutual"));
        assertEquals("cluster.tls", e.place());
        assertTrue(e.problem().contains("expected true or false") && e.problem().contains("mutual"), e.problem());
        assertTrue(e.fix().contains("tls: true"), e.fix());
        ClearError.check(e, "cluster.tls=mutual");
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "cluster.tls=true"));
        assertEquals("cluster.tls", e.place());
        assertTrue(e.fix().contains("mode: processes"), e.fix());
        ClearError.check(e, "cluster.tls=true");
    }
}
