package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.server.node.CommitProtocol;

/** {@code cluster.commit: 2pc | epoch} (default 2pc) and {@code cluster.epoch} (default 10 ms, epoch only). */
class CommitKeyTest {
    @TempDir
    java.nio.file.Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    @Test
    void defaultsToTwoPhaseCommitAndReadsEpoch() {
        assertEquals(CommitProtocol.TWO_PC, fx.load(ExperimentFixture.BANK).cluster().commit());
        ClusterSpec c = fx.load(ExperimentFixture.BANK, "cluster.commit=epoch").cluster();
        assertEquals(CommitProtocol.EPOCH, c.commit());
        assertEquals(10_000, c.epochMicros());
        assertEquals(2_500, fx.load(ExperimentFixture.BANK, "cluster.commit=epoch", "cluster.epoch=2500us").cluster()
                .epochMicros());
        var json = ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK, "cluster.commit=epoch")).get("cluster");
        assertEquals("epoch", json.get("commit").asText(), json.toString());
        assertEquals("10ms", json.get("epoch").asText(), json.toString());
    }

    @Test
    void badValuesAreOneClearMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK,
                "cluster.commit=3pc"));
        assertEquals("cluster.commit", e.place());
        assertTrue(e.fix().contains("2pc") && e.fix().contains("epoch"), e.fix());
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "cluster.epoch=5ms"));
        assertEquals("cluster.epoch", e.place());
        assertTrue(e.fix().contains("commit: epoch"), e.fix());
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "cluster.commit=epoch",
                "cluster.epoch=0ms"));
        assertEquals("cluster.epoch", e.place());
    }
}
