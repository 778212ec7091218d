package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.server.zk.ZkConnection;

/** {@code cluster.sessionTimeout}: 15 s by default, read as a duration, bounded, and for processes mode only. */
class SessionTimeoutKeyTest {
    @TempDir
    java.nio.file.Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    @Test
    void defaultsTo15SecondsAndReadsADuration() {
        assertEquals(15_000, ZkConnection.DEFAULT_SESSION_MILLIS);
        assertEquals(15_000, fx.load(ExperimentFixture.BANK, "cluster.mode=processes").cluster().sessionTimeoutMillis());
        assertEquals(15_000, fx.load(ExperimentFixture.BANK).cluster().sessionTimeoutMillis());
        assertEquals(40_000, fx.load(ExperimentFixture.BANK, "cluster.mode=processes", "cluster.sessionTimeout=40s")
                .cluster().sessionTimeoutMillis());
        assertEquals(2_500, fx.load(ExperimentFixture.BANK, "cluster.mode=processes", "cluster.sessionTimeout=2500ms")
                .cluster().sessionTimeoutMillis());
    }

    @Test
    void theResolvedConfigurationRecordsItForProcessesMode() {
        var processes = ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK, "cluster.mode=processes",
                "cluster.sessionTimeout=40s")).get("cluster");
        assertEquals("40s", processes.get("sessionTimeout").asText(), processes.toString());
        var embedded = ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK)).get("cluster");
        assertTrue(!embedded.has("sessionTimeout"), "embedded mode has no sessions: " + embedded);
    }

    @Test
    void outOfRangeOrMalformedIsOneClearMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK,
                "cluster.mode=processes", "cluster.sessionTimeout=500ms"));
        assertEquals("cluster.sessionTimeout", e.place());
        assertTrue(e.problem().contains("between 2s and 10m"), e.problem());
        assertTrue(e.fix().contains("sessionTimeout: 15s"), e.fix());
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "cluster.mode=processes",
                "cluster.sessionTimeout=11m"));
        assertTrue(e.problem().contains("found 11m") || e.problem().contains("found 660s"), e.problem());
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "cluster.mode=processes",
                "cluster.sessionTimeout=soon"));
        assertEquals("cluster.sessionTimeout", e.place());
    }

    @Test
    void onlyProcessesModeHasSessions() {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK,
                "cluster.sessionTimeout=20s"));
        assertEquals("cluster.sessionTimeout", e.place());
        assertTrue(e.fix().contains("mode: processes"), e.fix());
    }
}
