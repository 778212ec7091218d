package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.server.process.ProcessCluster;

/** {@code cluster.bind}: loopback by default, an address of this machine or the wildcard, process mode only. */
class BindConfigTest {
    @TempDir
    Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    private String error(String... sets) {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, sets));
        return e.getMessage().replace(tmp.toString(), "<dir>");
    }

    @Test
    void loopbackByDefaultEverywhere() {
        assertEquals("127.0.0.1", fx.load(ExperimentFixture.BANK, "cluster.mode=processes").cluster().bind());
        assertEquals("127.0.0.1", new ProcessCluster.Spec(null, null, "x", null, null, null, 0).bindHost());
        assertEquals("0.0.0.0", fx.load(ExperimentFixture.BANK, "cluster.mode=processes", "cluster.bind=0.0.0.0")
                .cluster().bind());
    }

    @Test
    void anAddressOfAnotherMachineOrAnotherModeIsOneMessage() {
        assertEquals("--set cluster.bind=192.0.2.7: cluster.bind: '192.0.2.7' is not an address of this machine. Fix: use 127.0.0.1 "
                + "(loopback, the default), 0.0.0.0 (every interface) or one of this machine's addresses",
                error("cluster.mode=processes", "cluster.bind=192.0.2.7"));
        assertEquals("--set cluster.bind=127.0.0.1: cluster.bind: only mode processes listens on a network interface (this cluster runs "
                + "embedded). Fix: add mode: processes, or remove bind", error("cluster.bind=127.0.0.1"));
    }
}
