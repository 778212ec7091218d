package org.tebaldi.server.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.server.net.ClusterSecret;

/** The manifest's JSON carries the cluster secret when the runner set one, and nothing when it did not. */
class ClusterManifestTest {
    private final ClusterManifest plain = new ClusterManifest(Map.of("name", "bank", "accounts", 20), 2, 2, true, 0,
            10_000);

    @Test
    void theSecretRoundTrips() {
        String s = ClusterSecret.generate().encoded();
        ClusterManifest m = plain.withSecret(s);
        assertEquals(m, ClusterManifest.fromJson(m.toJson()));
        assertEquals(s, ClusterManifest.fromJson(m.toJson()).secret());
        assertNull(ClusterManifest.fromJson(plain.toJson()).secret());
        assertFalse(new String(plain.toJson(), StandardCharsets.UTF_8).contains("secret"));
    }

    @Test
    void tlsRoundTripsAndIsOffInAnOlderManifest() {
        ClusterManifest m = plain.withSecret("c2VjcmV0").withTls(true).withCommit(
                org.tebaldi.server.node.CommitProtocol.EPOCH, 7_000);
        assertEquals(m, ClusterManifest.fromJson(m.toJson()));
        assertEquals(true, ClusterManifest.fromJson(m.toJson()).tls());
        assertFalse(ClusterManifest.fromJson(plain.toJson()).tls());
        assertFalse(new String(plain.toJson(), StandardCharsets.UTF_8).contains("tls"));
    }

    @Test
    void theCommitProtocolRoundTripsAndDefaultsToTwoPhaseCommit() {
        ClusterManifest m = plain.withCommit(org.tebaldi.server.node.CommitProtocol.EPOCH, 7_000).withSecret("c2VjcmV0");
        ClusterManifest back = ClusterManifest.fromJson(m.toJson());
        assertEquals(m, back);
        assertEquals(org.tebaldi.server.node.CommitProtocol.EPOCH, back.commitProtocol());
        assertEquals(7_000, back.commitEpochMicros());
        assertEquals(org.tebaldi.server.node.CommitProtocol.TWO_PC, ClusterManifest.fromJson(plain.toJson())
                .commitProtocol());
        assertFalse(new String(plain.toJson(), StandardCharsets.UTF_8).contains("commit"));
    }

    @Test
    void replicationAndNearestReadsRoundTrip() {
        ClusterManifest m = plain.withReplication(3, "async", "nearest");
        ClusterManifest back = ClusterManifest.fromJson(m.toJson());
        assertEquals(m, back);
        assertEquals(org.tebaldi.server.replica.ReplicationOptions.Reads.NEAREST, back.replication().reads());
        assertEquals(org.tebaldi.server.replica.ReplicationOptions.Reads.PRIMARY,
                ClusterManifest.fromJson(plain.withReplication(3, "async").toJson()).replication().reads());
        assertFalse(new String(plain.withReplication(2, "sync").toJson(), StandardCharsets.UTF_8)
                .contains("replicaReads"));
    }

    @Test
    void theClockOriginRoundTrips() {
        ClusterManifest m = plain.withReplication(3, "async", "nearest").withClockOrigin(1_790_000_000_123_456L);
        ClusterManifest back = ClusterManifest.fromJson(m.toJson());
        assertEquals(m, back);
        assertEquals(1_790_000_000_123_456L, back.clockOriginMicros());
        assertEquals(0, ClusterManifest.fromJson(plain.toJson()).clockOriginMicros(), "none: each node's own start");
        assertEquals(1_790_000_000_123_456L, m.withSecret("c2VjcmV0").withDurability(
                org.tebaldi.server.durability.DurabilityOptions.OFF).clockOriginMicros(), "kept by the with-copies");
    }

    @Test
    void aSecretOfTheWrongTypeIsNotAManifest() {
        String json = new String(plain.toJson(), StandardCharsets.UTF_8).replace("}", ",\"secret\":7}");
        assertThrows(IllegalArgumentException.class,
                () -> ClusterManifest.fromJson(json.getBytes(StandardCharsets.UTF_8)));
    }
}
