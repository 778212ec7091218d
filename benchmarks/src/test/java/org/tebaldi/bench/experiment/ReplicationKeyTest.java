package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.server.replica.ReplicationOptions;

/**
 * {@code cluster.replication: {factor, mode, failover}} (default factor 1 = off, mode sync, failover auto): read,
 * written to the resolved configuration, and every bad value refused with one message naming the place and the fix.
 */
class ReplicationKeyTest {
    @TempDir
    java.nio.file.Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    @Test
    void defaultsToNoReplicationAndReadsFactorAndMode() {
        ClusterSpec off = fx.load(ExperimentFixture.BANK).cluster();
        assertEquals(1, off.replicas());
        assertTrue(!off.replication().enabled());
        ClusterSpec c = fx.load(ExperimentFixture.BANK, "cluster.dataServers=3", "durability.enabled=true",
                "cluster.replication.factor=3", "cluster.replication.mode=async").cluster();
        assertEquals(3, c.replicas());
        assertEquals(ReplicationOptions.Mode.ASYNC, c.replicationMode());
        assertEquals(ReplicationOptions.Mode.SYNC, fx.load(ExperimentFixture.BANK, "cluster.dataServers=2",
                "durability.enabled=true", "cluster.replication.factor=2").cluster().replicationMode());
        var json = ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK, "cluster.dataServers=3",
                "durability.enabled=true", "cluster.replication.factor=3")).get("cluster").get("replication");
        assertEquals(3, json.get("factor").asInt(), json.toString());
        assertEquals("sync", json.get("mode").asText(), json.toString());
        assertEquals("auto", json.get("failover").asText(), json.toString());
        assertTrue(c.autoFailover(), "failover defaults to auto");
        assertTrue(!fx.load(ExperimentFixture.BANK, "cluster.dataServers=2", "durability.enabled=true",
                "cluster.replication.factor=2", "cluster.replication.failover=manual").cluster().autoFailover());
        assertEquals("primary", json.get("reads").asText(), json.toString());
        ClusterSpec near = fx.load(ExperimentFixture.BANK, "cluster.dataServers=3", "durability.enabled=true",
                "cluster.replication.factor=3", "cluster.replication.reads=nearest").cluster();
        assertEquals(ReplicationOptions.Reads.NEAREST, near.replicaReads());
        assertTrue(near.replication().nearestReads());
        assertEquals(ReplicationOptions.Reads.PRIMARY, c.replicaReads());
    }

    @Test
    void fencingDefaultsToLeaseAndReadsOffUnquoted() {
        ClusterSpec c = fx.load(ExperimentFixture.BANK, "cluster.dataServers=2", "durability.enabled=true",
                "cluster.replication.factor=2").cluster();
        assertTrue(c.fencing(), "fencing defaults to lease");
        assertEquals("lease", ResolvedConfig.toJson(fx.load(ExperimentFixture.BANK, "cluster.dataServers=2",
                "durability.enabled=true", "cluster.replication.factor=2")).get("cluster").get("replication")
                .get("fencing").asText());
        assertTrue(!fx.load(ExperimentFixture.BANK, "cluster.dataServers=2", "durability.enabled=true",
                "cluster.replication.factor=2", "cluster.replication.fencing=off").cluster().fencing(),
                "an unquoted off (YAML false) is off");
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK,
                "cluster.dataServers=2", "durability.enabled=true", "cluster.replication.factor=2",
                "cluster.replication.fencing=sometimes"));
        assertEquals("cluster.replication.fencing", e.place());
        assertTrue(e.fix().contains("lease"), e.fix());
    }

    @Test
    void aBadFailoverValueIsOneClearMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK,
                "cluster.dataServers=2", "durability.enabled=true", "cluster.replication.factor=2",
                "cluster.replication.failover=sometimes"));
        assertEquals("cluster.replication.failover", e.place());
        assertTrue(e.fix().contains("auto") && e.fix().contains("manual"), e.fix());
    }

    @Test
    void badReadsAreOneClearMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK,
                "cluster.dataServers=2", "durability.enabled=true", "cluster.replication.factor=2",
                "cluster.replication.reads=closest"));
        assertEquals("cluster.replication.reads", e.place());
        assertTrue(e.fix().contains("primary") && e.fix().contains("nearest"), e.fix());
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "durability.enabled=true",
                "cluster.replication.factor=1", "cluster.replication.reads=nearest"));
        assertEquals("cluster.replication.reads", e.place());
        assertTrue(e.fix().contains("factor: 2"), e.fix());
    }

    @Test
    void badValuesAreOneClearMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK,
                "cluster.dataServers=2", "durability.enabled=true", "cluster.replication.factor=3"));
        assertEquals("cluster.replication.factor", e.place());
        assertTrue(e.fix().contains("dataServers: 3"), e.fix());
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "cluster.dataServers=2",
                "durability.enabled=true", "cluster.replication.factor=2", "cluster.replication.mode=eventual"));
        assertEquals("cluster.replication.mode", e.place());
        assertTrue(e.fix().contains("sync") && e.fix().contains("async"), e.fix());
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "cluster.dataServers=2",
                "cluster.replication.factor=2"));
        assertEquals("cluster.replication", e.place());
        assertTrue(e.fix().contains("durability"), e.fix());
        e = assertThrows(ConfigException.class, () -> fx.load(ExperimentFixture.BANK, "cluster.replication.copies=2"));
        assertTrue(e.fix().contains("factor"), e.fix());
    }
}
